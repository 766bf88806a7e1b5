<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ArchitectureDetails</name>
    <message>
        <source>shapes only — meta tensors hold no values</source>
        <translation>只有形状——meta 张量不存放数值</translation>
    </message>
    <message>
        <source>%n bytes</source>
        <translation>%n 字节</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>%n module calls</source>
        <translation>%n 次模块调用</translation>
    </message>
    <message>
        <source>%n torch operations</source>
        <translation>%n 个 torch 操作</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Repeated blocks, folded: %1</source>
        <translation>重复的块，已折叠：%1</translation>
    </message>
    <message>
        <source>Click a box or op for its details; double-click a box to open it, click a frame&apos;s header to close it. Edges are tensors, labelled with their shape (and dtype when not float32). Purple boxes are modules, dashed frames folded repeats, red the op that raised.</source>
        <translation>单击框或操作查看详情；双击框把它展开，单击外框的标题把它收起。边是张量，标注它的形状（不是 float32 时也标出数据类型 dtype）。紫色框是模块，虚线框是折叠起来的重复块，红色是抛出异常的操作。</translation>
    </message>
    <message>
        <source>The forward raised %1 at op %2; everything up to there is drawn.</source>
        <translation>前向传播在操作 %2 处抛出 %1；之前的部分都已画出。</translation>
    </message>
    <message>
        <source>The forward raised %1 in the code of %2; everything up to there is drawn.</source>
        <translation>前向传播在 %2 的代码中抛出 %1；之前的部分都已画出。</translation>
    </message>
    <message>
        <source>The forward raised %1; everything up to there is drawn.</source>
        <translation>前向传播抛出 %1；之前的部分都已画出。</translation>
    </message>
    <message>
        <source>torch says:</source>
        <translation>torch 的报错：</translation>
    </message>
    <message>
        <source>why:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <source>fix:</source>
        <translation>修正方法：</translation>
    </message>
    <message>
        <source>torch operation</source>
        <translation>torch 操作</translation>
    </message>
    <message>
        <source>input of the forward</source>
        <translation>前向传播的输入</translation>
    </message>
    <message>
        <source>output of the forward</source>
        <translation>前向传播的输出</translation>
    </message>
    <message>
        <source>tensor from outside</source>
        <translation>来自外部的张量</translation>
    </message>
    <message>
        <source>what a module returned</source>
        <translation>模块的返回值</translation>
    </message>
    <message>
        <source>(model)</source>
        <translation>（模型）</translation>
    </message>
    <message>
        <source>in</source>
        <translation>所在</translation>
    </message>
    <message>
        <source>inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>%1 from %2</source>
        <translation>%1，来自 %2</translation>
    </message>
    <message>
        <source>parameters read</source>
        <translation>读取的参数</translation>
    </message>
    <message>
        <source>outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>It writes its input in place (the edge out of it is the new version).</source>
        <translation>它原位写入自己的输入（从它出去的边是新版本）。</translation>
    </message>
    <message>
        <source>qualified name</source>
        <translation>限定名</translation>
    </message>
    <message>
        <source>(the model itself)</source>
        <translation>（模型本身）</translation>
    </message>
    <message>
        <source>%1 (%2), the same recorded structure each time</source>
        <translation>%1（%2），每次记录到的结构都相同</translation>
    </message>
    <message>
        <source>repeated</source>
        <translation>重复</translation>
    </message>
    <message>
        <source>called %n times (this is call %1)</source>
        <translation>被调用 %n 次（这是第 %1 次）</translation>
    </message>
    <message>
        <source>%1 (%2), %3 of its own</source>
        <translation>%1（%2），其中自己的 %3</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source> (buffer)</source>
        <translation>（缓冲区 buffer）</translation>
    </message>
    <message>
        <source>%n torch operations directly inside</source>
        <translation>直接包含 %n 个 torch 操作</translation>
    </message>
    <message>
        <source>It did not return: %1</source>
        <translation>它没有返回：%1</translation>
    </message>
</context>
<context>
    <name>ArchitecturePanel</name>
    <message>
        <source>0 = the model as one box; the highest value opens every module down to its torch operations</source>
        <translation>0 = 整个模型画成一个框；最大值把每个模块一直展开到 torch 操作</translation>
    </message>
    <message>
        <source>fold repeats</source>
        <translation>折叠重复块</translation>
    </message>
    <message>
        <source>Draw consecutive blocks with the same structure as one (Block × N)</source>
        <translation>把结构相同的连续块画成一个（Block × N）</translation>
    </message>
    <message>
        <source>Find module or op…</source>
        <translation>查找模块或操作…</translation>
    </message>
    <message>
        <source>Find modules or ops by name (h.5.attn, linear); Enter jumps to the next match</source>
        <translation>按名字查找模块或操作（h.5.attn、linear）；回车跳到下一个匹配</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Show the whole picture</source>
        <translation>显示整张图</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the picture as PNG, SVG or Graphviz DOT</source>
        <translation>把图保存为 PNG、SVG 或 Graphviz DOT</translation>
    </message>
    <message>
        <source>Backward graph</source>
        <translation>反向计算图</translation>
    </message>
    <message>
        <source>Open the Autograd graph of this forward&apos;s output, on the node of the selected op</source>
        <translation>打开这次前向传播输出的自动求导计算图，并定位到所选操作的节点</translation>
    </message>
    <message>
        <source>Architecture of</source>
        <translation>模型结构：</translation>
    </message>
    <message>
        <source>depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>preset: %1</source>
        <translation>预设：%1</translation>
    </message>
    <message>
        <source>&lt;p&gt;Recording %1…&lt;/p&gt;</source>
        <translation>&lt;p&gt;正在记录 %1…&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Recording the forward of %1… (the window stays usable)</source>
        <translation>正在记录 %1 的前向传播…（窗口仍可使用）</translation>
    </message>
    <message>
        <source>Could not build the model</source>
        <translation>无法构建模型</translation>
    </message>
    <message>
        <source>The forward raised %1: %2 — drawn up to the failing op (red).</source>
        <translation>前向传播抛出 %1：%2——已画到出错的操作为止（红色）。</translation>
    </message>
    <message>
        <source>every op</source>
        <translation>全部操作</translation>
    </message>
    <message>
        <source>one box</source>
        <translation>一个框</translation>
    </message>
    <message>
        <source>Nothing is called &apos;%1&apos;</source>
        <translation>没有叫 &apos;%1&apos; 的东西</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
</context>
<context>
    <name>ArchitectureView</name>
    <message>
        <source>%1  (crosses the frame&apos;s border here)</source>
        <translation>%1  （在这里穿过外框的边界）</translation>
    </message>
</context>
<context>
    <name>BackwardBar</name>
    <message>
        <source>Backward</source>
        <translation>反向传播</translation>
    </message>
    <message>
        <source>◀ Step</source>
        <translation>◀ 上一步</translation>
    </message>
    <message>
        <source>Previous node (Shift+F10)</source>
        <translation>上一个节点（Shift+F10）</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>Next node torch visits (F10)</source>
        <translation>torch 访问的下一个节点（F10）</translation>
    </message>
    <message>
        <source>To end</source>
        <translation>到最后</translation>
    </message>
    <message>
        <source>Zero grad</source>
        <translation>梯度清零</translation>
    </message>
    <message>
        <source>Set every leaf&apos;s .grad to zero, as optimizer.zero_grad() does</source>
        <translation>把每个叶子张量的 .grad 置零，就像 optimizer.zero_grad() 那样</translation>
    </message>
    <message>
        <source>backward(gradient=torch.ones_like(root)): needed when the root is not a scalar</source>
        <translation>backward(gradient=torch.ones_like(root))：根不是标量时需要</translation>
    </message>
    <message>
        <source>Run root.backward() with hooks on every node; then step through what torch did</source>
        <translation>在每个节点上挂钩子运行 root.backward()；然后一步步查看 torch 做了什么</translation>
    </message>
    <message>
        <source>This graph was freed by a backward without retain_graph: torch cannot walk it again. Step through the pass that ran, or run the forward again.</source>
        <translation>这个计算图已被一次没有 retain_graph 的反向传播释放：torch 无法再遍历它。可以逐步查看已经运行的那一次，或者重新运行前向传播。</translation>
    </message>
    <message>
        <source>backward not run yet</source>
        <translation>还没有运行反向传播</translation>
    </message>
    <message>
        <source>pass %1 · step %2/%3</source>
        <translation>第 %1 次 · 第 %2/%3 步</translation>
    </message>
</context>
<context>
    <name>BackwardStepping</name>
    <message>
        <source>Running backward… (the window stays usable)</source>
        <translation>正在运行反向传播…（窗口仍可使用）</translation>
    </message>
    <message>
        <source>Backward pass %1 recorded: %n backward nodes visited</source>
        <translation>已记录第 %1 次反向传播：访问了 %n 个反向节点</translation>
    </message>
    <message>
        <source>Every leaf&apos;s .grad is now zero</source>
        <translation>每个叶子张量的 .grad 现在都是零</translation>
    </message>
</context>
<context>
    <name>FrameItem</name>
    <message>
        <source>click the header to close it</source>
        <translation>单击标题把它收起</translation>
    </message>
</context>
<context>
    <name>GraphDetails</name>
    <message>
        <source>In-place rewrite (CopySlices / AsStrided)</source>
        <translation>原位改写（CopySlices / AsStrided）</translation>
    </message>
    <message>
        <source>Root tensor</source>
        <translation>根张量</translation>
    </message>
    <message>
        <source>Backward node</source>
        <translation>反向节点</translation>
    </message>
    <message>
        <source>Leaf tensor (AccumulateGrad)</source>
        <translation>叶子张量（AccumulateGrad）</translation>
    </message>
    <message>
        <source>: </source>
        <translation>：</translation>
    </message>
    <message>
        <source>Backward has not reached this node yet.</source>
        <translation>反向传播还没有到达这个节点。</translation>
    </message>
    <message>
        <source>Step on to see what backward sends through here.</source>
        <translation>继续单步，看看反向传播经过这里传了什么。</translation>
    </message>
    <message>
        <source>gradient arriving</source>
        <translation>到达的梯度</translation>
    </message>
    <message>
        <source>gradients sent to inputs</source>
        <translation>传给输入的梯度</translation>
    </message>
    <message>
        <source>produces</source>
        <translation>产生</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>&lt;b&gt;cut inputs&lt;/b&gt; (need no grad, marked ×): position %1</source>
        <translation>&lt;b&gt;被切断的输入&lt;/b&gt;（不需要梯度，标 ×）：位置 %1</translation>
    </message>
    <message>
        <source>saved for backward</source>
        <translation>为反向传播保存的值</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>why?</source>
        <translation>为什么？</translation>
    </message>
    <message>
        <source>It is a view (its _base is another tensor).</source>
        <translation>它是一个视图（它的 _base 是另一个张量）。</translation>
    </message>
    <message>
        <source>Backward starts here with gradient 1 (d root / d root).</source>
        <translation>反向传播从这里开始，梯度为 1（d root / d root）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;local derivative&lt;/b&gt;: &lt;i&gt;its saved tensors were freed by a backward without retain_graph; run Backward again to read them&lt;/i&gt;</source>
        <translation>&lt;b&gt;局部导数&lt;/b&gt;：&lt;i&gt;它保存的张量已被一次没有 retain_graph 的反向传播释放；再运行一次反向传播才能读取&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;local derivative&lt;/b&gt;: &lt;i&gt;not explained for this op yet&lt;/i&gt;</source>
        <translation>&lt;b&gt;局部导数&lt;/b&gt;：&lt;i&gt;这个操作暂时还没有解释&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;local derivative&lt;/b&gt; (the chain rule&apos;s factor on each edge):</source>
        <translation>&lt;b&gt;局部导数&lt;/b&gt;（链式法则在每条边上乘的因子）：</translation>
    </message>
    <message>
        <source>chain rule: sent to %1 = %2 × %3 = %4</source>
        <translation>链式法则：传给 %1 的梯度 = %2 × %3 = %4</translation>
    </message>
    <message>
        <source>AccumulateGrad adds the arriving gradient into .grad; it never overwrites.</source>
        <translation>AccumulateGrad 把到达的梯度加进 .grad；它从不覆盖（梯度累积）。</translation>
    </message>
    <message>
        <source>AccumulateGrad adds, it never overwrites: .grad = %1 + %2 = %3</source>
        <translation>AccumulateGrad 是累加，从不覆盖：.grad = %1 + %2 = %3</translation>
    </message>
    <message>
        <source>%n nodes inside</source>
        <translation>内含 %n 个节点</translation>
    </message>
    <message>
        <source>nn.Module, collapsed (untick “group by nn.Module” to open it)</source>
        <translation>nn.Module，已收起（取消勾选“按 nn.Module 分组”即可展开）</translation>
    </message>
    <message>
        <source>Click a node for its details. Press &lt;b&gt;Backward&lt;/b&gt; to run backward with a hook on every node, then &lt;b&gt;Step ▶&lt;/b&gt; (F10) through the order torch visited them.</source>
        <translation>单击节点查看详情。按 &lt;b&gt;反向传播&lt;/b&gt; 在每个节点上挂钩子运行反向传播，然后按 &lt;b&gt;下一步 ▶&lt;/b&gt;（F10）按 torch 访问的顺序逐个查看。</translation>
    </message>
    <message>
        <source>Green: leaves (AccumulateGrad; dashed: one stub per use of a shared weight). Blue: backward nodes. Purple: collapsed nn.Modules. Orange: in-place rewrites. Red ×: an input that needs no grad (cut). Edges run input → consumer; gradients flow back up.</source>
        <translation>绿色：叶子张量（AccumulateGrad；虚线：共享权重每被使用一次就画一个分身）。蓝色：反向节点。紫色：收起的 nn.Module。橙色：原位改写。红色 ×：不需要梯度的输入（被切断）。边从输入指向使用者；梯度沿边往回流。</translation>
    </message>
    <message>
        <source>No autograd graph</source>
        <translation>没有计算图</translation>
    </message>
    <message>
        <source>backward() refused</source>
        <translation>backward() 被拒绝</translation>
    </message>
</context>
<context>
    <name>GraphExport</name>
    <message>
        <source>Export as .png, .svg or .dot, not &apos;%1&apos;.</source>
        <translation>只能导出为 .png、.svg 或 .dot，不能是 &apos;%1&apos;。</translation>
    </message>
    <message>
        <source>no suffix</source>
        <translation>没有后缀</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Export graph</source>
        <translation>导出计算图</translation>
    </message>
</context>
<context>
    <name>GraphPanel</name>
    <message>
        <source>Find node…</source>
        <translation>查找节点…</translation>
    </message>
    <message>
        <source>Find nodes by name or op (x, w, Mul); Enter jumps to the next match</source>
        <translation>按名字或操作查找节点（x、w、Mul）；回车跳到下一个匹配</translation>
    </message>
    <message>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <source>Show the whole graph</source>
        <translation>显示整个计算图</translation>
    </message>
    <message>
        <source>Keep saved tensors so another backward can run</source>
        <translation>保留保存的张量，以便再运行一次反向传播</translation>
    </message>
    <message>
        <source>Graph of</source>
        <translation>计算图：</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <source>Save the graph as PNG, SVG or Graphviz DOT</source>
        <translation>把计算图保存为 PNG、SVG 或 Graphviz DOT</translation>
    </message>
    <message>
        <source>group by nn.Module</source>
        <translation>按 nn.Module 分组</translation>
    </message>
    <message>
        <source>Collapse what each module made into one node (any graph whose forward ran in the app — presets, the Script area, the Architecture area — or in your code inside `with tensorviz.tag_modules():`)</source>
        <translation>把每个模块产生的节点合并成一个节点（适用于前向在应用里运行的图——预设、脚本区、架构区——或在你的代码里 `with tensorviz.tag_modules():` 之内运行的前向）</translation>
    </message>
    <message>
        <source>level </source>
        <translation>层级 </translation>
    </message>
    <message>
        <source>1: the model&apos;s children; 2: their children (h.0 … h.11)</source>
        <translation>1：模型的子模块；2：子模块的子模块（h.0 … h.11）</translation>
    </message>
    <message>
        <source>Keep .grad on the root, which is not a leaf</source>
        <translation>在根上保留 .grad（根不是叶子张量）</translation>
    </message>
    <message>
        <source>preset: %1</source>
        <translation>预设：%1</translation>
    </message>
    <message>
        <source>workspace: %1</source>
        <translation>工作区：%1</translation>
    </message>
    <message>
        <source>workspace tensor %1</source>
        <translation>工作区张量 %1</translation>
    </message>
    <message>
        <source>the output of %1</source>
        <translation>%1 的输出</translation>
    </message>
    <message>
        <source>That op made no backward node (no input needed grad)</source>
        <translation>这个操作没有产生反向节点（没有输入需要梯度）</translation>
    </message>
    <message>
        <source>architecture: output of %1</source>
        <translation>模型结构：%1 的输出</translation>
    </message>
    <message>
        <source>Laying out %n nodes…</source>
        <translation>正在排布 %n 个节点…</translation>
    </message>
    <message>
        <source>No node matches &apos;%1&apos;</source>
        <translation>没有节点匹配 &apos;%1&apos;</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
</context>
<context>
    <name>RecordedPasses</name>
    <message>
        <source>The graph was freed by a backward without retain_graph (torch keeps saved tensors for one pass). Run the forward again to get a new graph — or step through the pass that ran.</source>
        <translation>这个计算图已被一次没有 retain_graph 的反向传播释放（torch 只为一次反向传播保留保存的张量）。重新运行前向传播可以得到新的计算图——或者逐步查看已经运行的那一次。</translation>
    </message>
    <message>
        <source>script: %1</source>
        <translation>脚本：%1</translation>
    </message>
    <message>
        <source>your script&apos;s %1</source>
        <translation>你的脚本中的 %1</translation>
    </message>
    <message>
        <source>%1 as your script ran it: %2 — Step ▶ (F10) walks them in torch&apos;s order</source>
        <translation>%1，按你的脚本运行时的样子：%2——下一步 ▶（F10）按 torch 的顺序逐个查看</translation>
    </message>
    <message>
        <source>The forward pass ran again on the same leaves (a new graph)</source>
        <translation>前向传播已在同样的叶子张量上重新运行（新的计算图）</translation>
    </message>
</context>
</TS>
