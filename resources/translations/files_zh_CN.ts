<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ChangeChart</name>
    <message>
        <source>‖Δ‖/‖A‖ per layer of %1 (%)</source>
        <translation>%1 各层的 ‖Δ‖/‖A‖（%）</translation>
    </message>
    <message>
        <source>‖Δ‖/‖A‖ per layer (%)</source>
        <translation>各层的 ‖Δ‖/‖A‖（%）</translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message>
        <source>Compare two checkpoints</source>
        <translation>比较两个检查点</translation>
    </message>
    <message>
        <source>the reference: changes are B against A</source>
        <translation>参照：变化指 B 相对于 A</translation>
    </message>
    <message>
        <source>the checkpoint compared with A</source>
        <translation>与 A 比较的检查点</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Swap A and B</source>
        <translation>交换 A 和 B</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Which two checkpoints? B is compared against A.</source>
        <translation>比较哪两个检查点？B 与 A 比较。</translation>
    </message>
    <message>
        <source>Checkpoints (%1);;All files (*)</source>
        <translation>检查点 (%1);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Choose a checkpoint</source>
        <translation>选择一个检查点</translation>
    </message>
</context>
<context>
    <name>CompareJobs</name>
    <message>
        <source>opening %1: %2</source>
        <translation>正在打开 %1：%2</translation>
    </message>
    <message>
        <source>The comparison failed (%1).</source>
        <translation>比较失败（%1）。</translation>
    </message>
    <message>
        <source>Reading failed (%1).</source>
        <translation>读取失败（%1）。</translation>
    </message>
</context>
<context>
    <name>ComparePanel</name>
    <message>
        <source>Compare…</source>
        <translation>比较…</translation>
    </message>
    <message>
        <source>Choose the two checkpoints (File → Compare…, Ctrl+Shift+D)</source>
        <translation>选择两个检查点（文件 → 比较…，Ctrl+Shift+D）</translation>
    </message>
    <message>
        <source>Swap A ⇄ B</source>
        <translation>交换 A ⇄ B</translation>
    </message>
    <message>
        <source>Compare again</source>
        <translation>重新比较</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Opening…</source>
        <translation>正在打开…</translation>
    </message>
    <message>
        <source>%1 (an entry)</source>
        <translation>%1（其中一个条目）</translation>
    </message>
    <message>
        <source>Compare two checkpoints tensor by tensor: File → Compare… (Ctrl+Shift+D); or in the Files area right-click a file → Compare with…, or select two entries → Compare. Nothing in the files runs: they are read by the Files area&apos;s safe reader.</source>
        <translation>逐个张量地比较两个检查点：文件 → 比较…（Ctrl+Shift+D）；或者在“文件”区域右键单击一个文件 → 与…比较，或选中两个条目 → 比较。文件中的任何内容都不会运行：它们由“文件”区域的安全读取器读取。</translation>
    </message>
    <message>
        <source>%1 of %2: %3</source>
        <translation>%1 / %2：%3</translation>
    </message>
    <message>
        <source>%1 is only in A.</source>
        <translation>%1 仅在 A 中。</translation>
    </message>
    <message>
        <source>%1 is only in B.</source>
        <translation>%1 仅在 B 中。</translation>
    </message>
    <message>
        <source>No values to show for %1: %2.</source>
        <translation>%1 没有可显示的数值：%2。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>ComparisonFilters</name>
    <message>
        <source>Show</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Group by layer</source>
        <translation>按层分组</translation>
    </message>
    <message>
        <source>Filter keys… (Ctrl+F)</source>
        <translation>筛选键名…（Ctrl+F）</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>ComparisonTableModel</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>max |Δ|</source>
        <translation>最大 |Δ|</translation>
    </message>
    <message>
        <source>mean |Δ|</source>
        <translation>平均 |Δ|</translation>
    </message>
    <message>
        <source>cosine</source>
        <translation>余弦相似度</translation>
    </message>
    <message>
        <source>changed elements</source>
        <translation>变化的元素</translation>
    </message>
    <message>
        <source>what changed</source>
        <translation>变化内容</translation>
    </message>
    <message>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Changed</source>
        <translation>已变化</translation>
    </message>
    <message>
        <source>Unchanged</source>
        <translation>未变化</translation>
    </message>
    <message>
        <source>Only in A</source>
        <translation>仅在 A 中</translation>
    </message>
    <message>
        <source>Only in B</source>
        <translation>仅在 B 中</translation>
    </message>
    <message>
        <source>Renamed</source>
        <translation>已改名</translation>
    </message>
    <message>
        <source>Not compared</source>
        <translation>未比较</translation>
    </message>
    <message>
        <source>%1 · layer ‖Δ‖/‖A‖ %2</source>
        <translation>%1 · 该层 ‖Δ‖/‖A‖ %2</translation>
    </message>
</context>
<context>
    <name>FileDetails</name>
    <message>
        <source>Select an entry of the file.</source>
        <translation>请选择文件中的一个条目。</translation>
    </message>
    <message>
        <source>(the whole file)</source>
        <translation>（整个文件）</translation>
    </message>
    <message>
        <source>entry</source>
        <translation>条目</translation>
    </message>
    <message>
        <source>holds</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>layout</source>
        <translation>布局</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>note</source>
        <translation>说明</translation>
    </message>
    <message>
        <source>load it</source>
        <translation>加载代码</translation>
    </message>
    <message>
        <source>#%1: %2 bytes, read by one entry</source>
        <translation>#%1：%2 字节，被 1 个条目读取</translation>
    </message>
    <message>
        <source>#%1: %2 bytes, read by %n entries</source>
        <translation>#%1：%2 字节，被 %n 个条目读取</translation>
    </message>
    <message>
        <source>stride</source>
        <translation>步幅 (stride)</translation>
    </message>
    <message>
        <source>storage_offset</source>
        <translation>存储偏移 (storage_offset)</translation>
    </message>
    <message>
        <source>storage</source>
        <translation>存储</translation>
    </message>
    <message>
        <source>sharing</source>
        <translation>共享</translation>
    </message>
    <message>
        <source>its own storage</source>
        <translation>独占自己的存储</translation>
    </message>
    <message>
        <source>statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>not computed yet (Statistics, Ctrl+I)</source>
        <translation>尚未计算（统计，Ctrl+I）</translation>
    </message>
    <message>
        <source>callable</source>
        <translation>可调用对象</translation>
    </message>
    <message>
        <source>would run</source>
        <translation>会执行</translation>
    </message>
    <message>
        <source>code from the module it names</source>
        <translation>它所指模块中的代码</translation>
    </message>
    <message>
        <source>made?</source>
        <translation>执行了吗？</translation>
    </message>
    <message>
        <source>never: tensorviz records calls, it does not make them</source>
        <translation>从不：tensorviz 只记录调用，不执行它们</translation>
    </message>
    <message>
        <source>class</source>
        <translation>类</translation>
    </message>
    <message>
        <source>no: the state the file recorded, shown as data</source>
        <translation>否：显示的是文件记录的状态，作为数据</translation>
    </message>
    <message>
        <source>no: its submodules, parameters and buffers as the file recorded them</source>
        <translation>否：显示的是文件记录的子模块、参数和缓冲区</translation>
    </message>
    <message>
        <source>built?</source>
        <translation>构建了吗？</translation>
    </message>
    <message>
        <source>names</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>%1 (never imported)</source>
        <translation>%1（从不导入）</translation>
    </message>
    <message>
        <source>type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>%1 (each storage counted once)</source>
        <translation>%1（每个存储只计一次）</translation>
    </message>
    <message>
        <source>bytes on disk</source>
        <translation>磁盘上的字节</translation>
    </message>
    <message>
        <source>… (%1 long)</source>
        <translation>…（共 %1 个字符）</translation>
    </message>
</context>
<context>
    <name>FileJobs</name>
    <message>
        <source>Opening failed unexpectedly (%1).</source>
        <translation>打开时意外失败（%1）。</translation>
    </message>
    <message>
        <source>Statistics stopped: %1</source>
        <translation>统计已停止：%1</translation>
    </message>
    <message>
        <source>Statistics failed unexpectedly (%1).</source>
        <translation>统计时意外失败（%1）。</translation>
    </message>
    <message>
        <source>not available: %1</source>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
</context>
<context>
    <name>FileKinds</name>
    <message>
        <source>a tensor</source>
        <translation>一个张量</translation>
    </message>
    <message>
        <source>a dict</source>
        <translation>一个 dict</translation>
    </message>
    <message>
        <source>a state-dict prefix</source>
        <translation>一个状态字典 (state dict) 前缀</translation>
    </message>
    <message>
        <source>a list</source>
        <translation>一个 list</translation>
    </message>
    <message>
        <source>a tuple</source>
        <translation>一个 tuple</translation>
    </message>
    <message>
        <source>a plain value</source>
        <translation>一个非张量的值</translation>
    </message>
    <message>
        <source>an nn.Module saved whole</source>
        <translation>一个整体保存的 nn.Module</translation>
    </message>
    <message>
        <source>an object of a class the file names (never built: its state as recorded)</source>
        <translation>文件引用的某个类的对象（从不构建：显示其记录的状态）</translation>
    </message>
    <message>
        <source>a call a plain torch.load would make — never made here</source>
        <translation>直接执行 torch.load 时会进行的调用 —— 这里从不执行</translation>
    </message>
    <message>
        <source>a class or function the file names (never imported)</source>
        <translation>文件引用的类或函数（从不导入）</translation>
    </message>
    <message>
        <source>a text file (code), shown, never run</source>
        <translation>文本文件（代码），只显示，从不运行</translation>
    </message>
    <message>
        <source>named, but its data is not there</source>
        <translation>有名称，但数据不在</translation>
    </message>
    <message>
        <source>a file of the folder</source>
        <translation>文件夹中的一个文件</translation>
    </message>
    <message>
        <source>a folder</source>
        <translation>一个文件夹</translation>
    </message>
</context>
<context>
    <name>FileList</name>
    <message>
        <source>%1 — opening…</source>
        <translation>%1 —— 正在打开…</translation>
    </message>
    <message>
        <source>⚠ %1 — cannot open</source>
        <translation>⚠ %1 —— 无法打开</translation>
    </message>
    <message>
        <source>⚠ %1 — %2, %n tensors, %3 — %4 call(s) listed, never made</source>
        <translation>⚠ %1 —— %2，%n 个张量，%3 —— 列出了 %4 个调用，从未执行</translation>
    </message>
    <message>
        <source>%1 — %2, %n tensors, %3</source>
        <translation>%1 —— %2，%n 个张量，%3</translation>
    </message>
</context>
<context>
    <name>FileNotes</name>
    <message>
        <source>%n storage(s) shared between entries (highlighted).</source>
        <translation>%n 个存储被多个条目共享（已高亮）。</translation>
    </message>
    <message>
        <source>Open a .pt / .pth / .bin / .ckpt, .safetensors, .npy or .npz file, a TorchScript archive, an *.index.json or a checkpoint folder with File → Open (Ctrl+O), File → Open Folder (Ctrl+Shift+O), Recent files, drag and drop, or the command line. Nothing in a file is ever run: objects show their recorded state and calls a plain torch.load would make are listed in red, never made.</source>
        <translation>通过 文件 → 打开（Ctrl+O）、文件 → 打开文件夹（Ctrl+Shift+O）、最近的文件、拖放或命令行，打开 .pt / .pth / .bin / .ckpt、.safetensors、.npy 或 .npz 文件、TorchScript 归档、*.index.json 或检查点文件夹。文件中的任何内容都不会运行：对象显示其记录的状态，直接执行 torch.load 时会进行的调用用红色列出，但从不执行。</translation>
    </message>
</context>
<context>
    <name>FileTreeModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Contents</source>
        <translation>内容</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Sharing / file</source>
        <translation>共享 / 文件</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1; in %2</source>
        <translation>%1；在 %2 中</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>在 %1 中</translation>
    </message>
</context>
<context>
    <name>FilesCompareActions</name>
    <message>
        <source>Compare %1 with</source>
        <translation>将 %1 与以下文件比较</translation>
    </message>
    <message>
        <source>Compare with… (open a second file first)</source>
        <translation>与…比较（请先打开第二个文件）</translation>
    </message>
    <message>
        <source>Compare the two selected entries</source>
        <translation>比较选中的两个条目</translation>
    </message>
    <message>
        <source>Compare %1 with the same entry in</source>
        <translation>将 %1 与以下文件中的同名条目比较</translation>
    </message>
</context>
<context>
    <name>FilesPanel</name>
    <message>
        <source>Send to workspace</source>
        <translation>发送到工作区</translation>
    </message>
    <message>
        <source>Statistics</source>
        <translation>统计</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新加载</translation>
    </message>
    <message>
        <source>Save tensors…</source>
        <translation>保存张量…</translation>
    </message>
    <message>
        <source>Save workspace tensors as .pt or .safetensors (Ctrl+Shift+S)</source>
        <translation>把工作区的张量保存为 .pt 或 .safetensors（Ctrl+Shift+S）</translation>
    </message>
    <message>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>load %n tensor(s) from a file</source>
        <translation>从文件加载 %n 个张量</translation>
    </message>
    <message>
        <source>Sent %1 to the workspace</source>
        <translation>已将 %1 发送到工作区</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Cancelled opening %n file(s)</source>
        <translation>已取消打开 %n 个文件</translation>
    </message>
</context>
<context>
    <name>PairValuesDialog</name>
    <message>
        <source>Values of %1</source>
        <translation>%1 的数值</translation>
    </message>
    <message>
        <source>no value changed</source>
        <translation>没有数值变化</translation>
    </message>
    <message>
        <source>rows</source>
        <translation>行</translation>
    </message>
    <message>
        <source>columns</source>
        <translation>列</translation>
    </message>
    <message>
        <source>Reading both tensors from their files…</source>
        <translation>正在从文件中读取两个张量…</translation>
    </message>
    <message>
        <source>element counts differ: A − B is not defined</source>
        <translation>元素个数不同：A − B 没有定义</translation>
    </message>
    <message>
        <source>B %1 is shown in A&apos;s shape %2 (row-major)</source>
        <translation>B %1 按 A 的形状 %2 显示（行优先）</translation>
    </message>
    <message>
        <source>Both tensors read.</source>
        <translation>两个张量都已读取。</translation>
    </message>
    <message>
        <source>dim %1 (size %2)</source>
        <translation>第 %1 维（大小 %2）</translation>
    </message>
    <message>
        <source>dim %1</source>
        <translation>第 %1 维</translation>
    </message>
</context>
<context>
    <name>SafetyNotice</name>
    <message>
        <source>Copy loading code</source>
        <translation>复制加载代码</translation>
    </message>
    <message>
        <source>Copy the torch.serialization.safe_globals lines that load this file</source>
        <translation>复制能加载此文件的 torch.serialization.safe_globals 代码行</translation>
    </message>
    <message>
        <source>Calls listed in red were never made.</source>
        <translation>红色列出的调用从未执行。</translation>
    </message>
</context>
<context>
    <name>SaveTensorsDialog</name>
    <message>
        <source>PyTorch torch.save (.pt)</source>
        <translation>PyTorch torch.save（.pt）</translation>
    </message>
    <message>
        <source>safetensors (.safetensors)</source>
        <translation>safetensors（.safetensors）</translation>
    </message>
    <message>
        <source>Save workspace tensors</source>
        <translation>保存工作区的张量</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Save contiguous copies instead</source>
        <translation>改为保存连续的拷贝</translation>
    </message>
    <message>
        <source>%1 — sharing and strides are lost</source>
        <translation>%1 —— 共享关系和步幅会丢失</translation>
    </message>
    <message>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Tensors to save (several are saved as one dict):</source>
        <translation>要保存的张量（多个张量会保存为一个 dict）：</translation>
    </message>
    <message>
        <source>Save tensors</source>
        <translation>保存张量</translation>
    </message>
    <message>
        <source>Tick at least one tensor to save.</source>
        <translation>请至少勾选一个要保存的张量。</translation>
    </message>
    <message>
        <source>Could not write %1: %2.</source>
        <translation>无法写入 %1：%2。</translation>
    </message>
</context>
<context>
    <name>ValuesLoader</name>
    <message>
        <source>Reading failed (%1).</source>
        <translation>读取失败（%1）。</translation>
    </message>
    <message>
        <source>No values to show: %1.</source>
        <translation>没有可显示的数值：%1。</translation>
    </message>
    <message>
        <source>Reading %1 (%2) from the file…</source>
        <translation>正在从文件读取 %1（%2）…</translation>
    </message>
    <message>
        <source>Read %1</source>
        <translation>已读取 %1</translation>
    </message>
</context>
</TS>
