<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ActionForm</name>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>自动命名</translation>
    </message>
    <message>
        <source>Name of the new tensor (a Python identifier)</source>
        <translation>新张量的名称（须是合法的 Python 变量名）</translation>
    </message>
</context>
<context>
    <name>BackgroundAction</name>
    <message>
        <source>Discard</source>
        <translation>放弃</translation>
    </message>
    <message>
        <source>Stop waiting: torch finishes this computation in the background and its result is dropped (Esc)</source>
        <translation>不再等待：torch 在后台算完这次计算，结果直接丢弃（Esc）</translation>
    </message>
    <message>
        <source>Computing %1 … %2 s</source>
        <translation>正在计算 %1 … %2 秒</translation>
    </message>
</context>
<context>
    <name>CreateForm</name>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>create</source>
        <translation>创建方式</translation>
    </message>
    <message>
        <source>seed</source>
        <translation>随机种子 (seed)</translation>
    </message>
    <message>
        <source>auto (torch infers)</source>
        <translation>自动（由 torch 推断）</translation>
    </message>
    <message>
        <source>Autograd records every operation on it, and backward() fills its .grad</source>
        <translation>自动求导 (autograd) 记录对它的每个操作，backward() 会填好它的 .grad</translation>
    </message>
    <message>
        <source>none (fresh random values)</source>
        <translation>不设（每次都是新的随机值）</translation>
    </message>
    <message>
        <source>torch.manual_seed(seed) before random creation, for reproducibility</source>
        <translation>随机创建之前先调用 torch.manual_seed(seed)，结果可以复现</translation>
    </message>
    <message>
        <source>seed must be a whole number, got &apos;%1&apos;.</source>
        <translation>随机种子 (seed) 必须是整数，收到的是“%1”。</translation>
    </message>
    <message>
        <source>seed must be between 0 and 4294967295, got %1.</source>
        <translation>随机种子 (seed) 必须在 0 到 4294967295 之间，收到的是 %1。</translation>
    </message>
</context>
<context>
    <name>HistoryList</name>
    <message>
        <source>How the selected tensor was made; click a step to select it</source>
        <translation>选中的张量是怎样一步步得到的；点击某一步即可选中那个张量</translation>
    </message>
    <message>
        <source>History</source>
        <translation>历史</translation>
    </message>
    <message>
        <source>History of %1</source>
        <translation>%1 的历史</translation>
    </message>
</context>
<context>
    <name>IdentityCard</name>
    <message>
        <source>index into the NumPy array, e.g. 0, 0 or 1</source>
        <translation>NumPy 数组的索引，例如 0, 0 或 1</translation>
    </message>
    <message>
        <source>Write through NumPy</source>
        <translation>通过 NumPy 写入</translation>
    </message>
    <message>
        <source>arr[index] = value — then see whether the tensor changed too</source>
        <translation>把值写入 arr[index]，然后看看张量是否也跟着变了</translation>
    </message>
    <message>
        <source>No tensor selected</source>
        <translation>未选择张量</translation>
    </message>
    <message>
        <source>shares storage with %1</source>
        <translation>与 %1 共享存储</translation>
    </message>
    <message>
        <source>owns its storage alone</source>
        <translation>独占自己的存储</translation>
    </message>
    <message>
        <source>from &lt;b&gt;script&lt;/b&gt;, line %1</source>
        <translation>来自&lt;b&gt;脚本&lt;/b&gt;第 %1 行</translation>
    </message>
    <message>
        <source>from &lt;b&gt;script&lt;/b&gt;</source>
        <translation>来自&lt;b&gt;脚本&lt;/b&gt;</translation>
    </message>
    <message>
        <source> — captured before the error on line %1</source>
        <translation>——在第 %1 行出错之前捕获</translation>
    </message>
    <message>
        <source>from &lt;b&gt;your code&lt;/b&gt;: %1, line %2 — the very object</source>
        <translation>来自&lt;b&gt;你的代码&lt;/b&gt;：%1 第 %2 行——就是那个对象本身</translation>
    </message>
    <message>
        <source>from &lt;b&gt;your code&lt;/b&gt;: %1 — the very object</source>
        <translation>来自&lt;b&gt;你的代码&lt;/b&gt;：%1——就是那个对象本身</translation>
    </message>
    <message>
        <source>%1 &lt;i&gt;(an earlier %1, replaced since)&lt;/i&gt;</source>
        <translation>%1 &lt;i&gt;（较早的 %1，之后已被替换）&lt;/i&gt;</translation>
    </message>
    <message>
        <source>%1 &lt;i&gt;(an earlier %1, deleted since)&lt;/i&gt;</source>
        <translation>%1 &lt;i&gt;（较早的 %1，之后已被删除）&lt;/i&gt;</translation>
    </message>
    <message>
        <source>made by &lt;b&gt;%1&lt;/b&gt; from %2</source>
        <translation>由 %2 经操作（&lt;b&gt;%1&lt;/b&gt;）得到</translation>
    </message>
    <message>
        <source>made by &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>来源：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;NumPy array arr&lt;/b&gt; %1 %2 — byte strides (%3), tensor element strides (%4).</source>
        <translation>&lt;b&gt;NumPy 数组 (arr)&lt;/b&gt; %1 %2——字节步幅 (%3)，张量的元素步幅 (%4)。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Shares memory&lt;/b&gt; with the tensor (torch.from_numpy): a write on either side shows in the other.</source>
        <translation>与张量&lt;b&gt;共享内存&lt;/b&gt;（torch.from_numpy）：任一方写入，另一方都看得到。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Separate memory&lt;/b&gt; (torch.tensor(arr) copied): writes do not cross over.</source>
        <translation>&lt;b&gt;内存各自独立&lt;/b&gt;（torch.tensor(arr) 做了拷贝）：一方写入不会影响另一方。</translation>
    </message>
</context>
<context>
    <name>IndexPictureView</name>
    <message>
        <source>Hover or click an element (arrow keys walk the index) to follow its links.</source>
        <translation>把鼠标移到或点击某个元素（方向键可在 index 中移动），就能看到它的对应关系。</translation>
    </message>
    <message>
        <source>No index picture: %1</source>
        <translation>无法画出索引示意图：%1</translation>
    </message>
</context>
<context>
    <name>OperateForm</name>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>The tensor the operation reads (the selected tensor)</source>
        <translation>操作要读取的张量（即当前选中的张量）</translation>
    </message>
</context>
<context>
    <name>ParamForm</name>
    <message>
        <source>No parameters.</source>
        <translation>没有参数。</translation>
    </message>
    <message>
        <source>no int64 tensor yet</source>
        <translation>还没有 int64 张量</translation>
    </message>
</context>
<context>
    <name>QuickCreateRow</name>
    <message>
        <source>New</source>
        <translation>新建</translation>
    </message>
    <message>
        <source>The shape of the new tensor, e.g. 2, 3 or 64, 3, 32, 32</source>
        <translation>新张量的形状，例如 2, 3 或 64, 3, 32, 32</translation>
    </message>
    <message>
        <source>%1 in one click</source>
        <translation>一键执行 %1</translation>
    </message>
</context>
<context>
    <name>TensorTableModel</name>
    <message>
        <source>dim %1, index %2</source>
        <translation>第 %1 维，索引 %2</translation>
    </message>
</context>
<context>
    <name>ValueCharts</name>
    <message>
        <source>Histogram</source>
        <translation>直方图</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>热力图</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>count</source>
        <translation>个数</translation>
    </message>
    <message>
        <source>row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>column</source>
        <translation>列</translation>
    </message>
</context>
<context>
    <name>ValueView</name>
    <message>
        <source>rows</source>
        <translation>行</translation>
    </message>
    <message>
        <source>columns</source>
        <translation>列</translation>
    </message>
    <message>
        <source>%1%2 — computing statistics…</source>
        <translation>%1%2——正在计算统计量…</translation>
    </message>
    <message>
        <source>%1statistics failed: %2</source>
        <translation>%1统计失败：%2</translation>
    </message>
    <message>
        <source>No tensor</source>
        <translation>没有张量</translation>
    </message>
    <message>
        <source>dim %1 (size %2)</source>
        <translation>第 %1 维（大小 %2）</translation>
    </message>
    <message>
        <source>which index of dim %1 the table and heatmap show</source>
        <translation>表格和热力图显示第 %1 维的哪个索引</translation>
    </message>
</context>
<context>
    <name>WorkbenchPanel</name>
    <message>
        <source>Apply operation</source>
        <translation>应用操作</translation>
    </message>
    <message>
        <source>Create tensor</source>
        <translation>创建张量</translation>
    </message>
    <message>
        <source>Nothing in the workspace was changed.</source>
        <translation>工作区里什么都没有改变。</translation>
    </message>
    <message>
        <source>Open the forward of the model this tensor belongs to</source>
        <translation>打开这个张量所属模型的前向传播</translation>
    </message>
    <message>
        <source>Discarded %1 (its result is dropped)</source>
        <translation>已放弃 %1（其结果被丢弃）</translation>
    </message>
    <message>
        <source>Still computing — wait for it, or Discard it (Esc)</source>
        <translation>仍在计算——请稍候，或放弃它（Esc）</translation>
    </message>
    <message>
        <source>Nothing was written: %1 was cancelled</source>
        <translation>什么都没有写入：%1 已取消</translation>
    </message>
    <message>
        <source>Write without undo?</source>
        <translation>写入后无法撤销，仍要写入吗？</translation>
    </message>
    <message>
        <source>%1 (%n parts)</source>
        <translation>%1（共 %n 部分）</translation>
    </message>
    <message>
        <source>Created %1</source>
        <translation>已创建 %1</translation>
    </message>
    <message>
        <source>%1 — changed %2</source>
        <translation>%1——改变了 %2</translation>
    </message>
    <message>
        <source>Rename tensor</source>
        <translation>重命名张量</translation>
    </message>
    <message>
        <source>New name for %1:</source>
        <translation>%1 的新名称：</translation>
    </message>
    <message>
        <source>Renamed %1 to %2</source>
        <translation>已将 %1 重命名为 %2</translation>
    </message>
    <message>
        <source>Duplicated %1 (a clone with its own storage)</source>
        <translation>已复制 %1（一个拥有自己存储的克隆）</translation>
    </message>
    <message>
        <source>Deleted %1 — Undo (Ctrl+Z) brings it back</source>
        <translation>已删除 %1——撤销（Ctrl+Z）可以找回</translation>
    </message>
    <message>
        <source>Nothing to undo</source>
        <translation>没有可撤销的操作</translation>
    </message>
    <message>
        <source>Undid %1</source>
        <translation>已撤销 %1</translation>
    </message>
    <message>
        <source>Nothing to redo</source>
        <translation>没有可重做的操作</translation>
    </message>
    <message>
        <source>Redid %1</source>
        <translation>已重做 %1</translation>
    </message>
    <message>
        <source>Undo %1 (Ctrl+Z)</source>
        <translation>撤销 %1（Ctrl+Z）</translation>
    </message>
    <message>
        <source>Redo %1 (Ctrl+Shift+Z, Ctrl+Y)</source>
        <translation>重做 %1（Ctrl+Shift+Z、Ctrl+Y）</translation>
    </message>
</context>
<context>
    <name>WorkspaceColumn</name>
    <message>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>Colour and number mark a storage: the same number, the same memory.</source>
        <translation>颜色和编号标出存储：编号相同，就是同一块内存。</translation>
    </message>
    <message>
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <source>Give the selected tensor a new name (F2)</source>
        <translation>给选中的张量改名（F2）</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>A clone of the selected tensor, with its own storage (Ctrl+D)</source>
        <translation>克隆选中的张量，副本拥有自己的存储（Ctrl+D）</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Remove the selected tensor (Del; Undo brings it back)</source>
        <translation>删除选中的张量（Del；撤销可以找回）</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
</context>
<context>
    <name>WorkspaceListModel</name>
    <message>
        <source>%1   [%2] %3   ✎ changed in place</source>
        <translation>%1   [%2] %3   ✎ 已被原位修改</translation>
    </message>
    <message>
        <source>storage %1, shared with %2</source>
        <translation>存储 %1，与 %2 共享</translation>
    </message>
    <message>
        <source>storage %1, its own</source>
        <translation>存储 %1，独占</translation>
    </message>
</context>
</TS>
