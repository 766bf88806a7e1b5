<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <source>%1 (PySide6 %2 loaded)</source>
        <translation>%1（已加载 PySide6 %2）</translation>
    </message>
    <message>
        <source>Qt runtime</source>
        <translation>Qt 运行时</translation>
    </message>
    <message>
        <source>About tensorviz</source>
        <translation>关于 tensorviz</translation>
    </message>
    <message>
        <source>See PyTorch: tensors, strides and storage, autograd graphs and training, on real torch objects.</source>
        <translation>看见 PyTorch：在真实的 torch 对象上查看张量、步幅与存储、自动求导的计算图和训练过程。</translation>
    </message>
    <message>
        <source>Copy to clipboard</source>
        <translation>复制到剪贴板</translation>
    </message>
    <message>
        <source>Copy the environment as text, e.g. for a bug report</source>
        <translation>把环境信息复制为文本，例如用于提交问题报告</translation>
    </message>
    <message>
        <source>still loading…</source>
        <translation>仍在加载…</translation>
    </message>
</context>
<context>
    <name>AreaLinks</name>
    <message>
        <source>script: %1</source>
        <translation>脚本：%1</translation>
    </message>
    <message>
        <source>Architecture of %1</source>
        <translation>%1 的模型结构</translation>
    </message>
    <message>
        <source>The op that made this node is selected in the Architecture area</source>
        <translation>已在“模型结构”区域选中生成这个节点的操作</translation>
    </message>
</context>
<context>
    <name>Areas</name>
    <message>
        <source>Workbench</source>
        <translation>工作台</translation>
    </message>
    <message>
        <source>Build real tensors and apply operations one step at a time.</source>
        <translation>创建真实的张量，一步一步地对它们施加操作。</translation>
    </message>
    <message>
        <source>Create tensors every way a learner does: torch.tensor, zeros/ones/full/eye, rand/randn/randint, arange/linspace, from NumPy (copy vs shared memory), and the legacy torch.Tensor(n) trap</source>
        <translation>用初学者会用到的各种方式创建张量：torch.tensor、zeros/ones/full/eye、rand/randn/randint、arange/linspace、从 NumPy 转换（拷贝还是共享内存），以及旧式构造函数 torch.Tensor(n) 的陷阱</translation>
    </message>
    <message>
        <source>Chain view, reshape, transpose, permute, expand, indexing, cat/stack, split/chunk, arithmetic with broadcasting, matmul and reductions</source>
        <translation>串联 view、reshape、transpose、permute、expand、索引、cat/stack、split/chunk、带广播的算术运算、matmul 和归约</translation>
    </message>
    <message>
        <source>Every result&apos;s identity: shape, dtype, device, strides, storage, view or copy</source>
        <translation>每个结果的身份：形状、数据类型 (dtype)、设备、步幅、存储，是视图 (view) 还是拷贝 (copy)</translation>
    </message>
    <message>
        <source>torch&apos;s own error message, explained, when an operation fails</source>
        <translation>操作失败时，显示 torch 自己的错误信息并加以解释</translation>
    </message>
    <message>
        <source>Script</source>
        <translation>脚本</translation>
    </message>
    <message>
        <source>Paste PyTorch code, run it, and explore every tensor it made.</source>
        <translation>粘贴 PyTorch 代码并运行，查看它创建的每一个张量。</translation>
    </message>
    <message>
        <source>An editor with Python colours and line numbers; Ctrl+Enter runs, Esc stops</source>
        <translation>带 Python 语法着色和行号的编辑器；Ctrl+Enter 运行，Esc 停止</translation>
    </message>
    <message>
        <source>Every tensor the script made (also in lists, dicts and nn.Modules) in the workspace</source>
        <translation>脚本创建的每个张量（包括列表、字典和 nn.Module 里的）都进入工作区</translation>
    </message>
    <message>
        <source>Output in order, errors trimmed to your code and explained; a failed run changes nothing</source>
        <translation>输出按顺序显示；错误只保留你自己的代码部分并加以解释；运行失败不会改变任何东西</translation>
    </message>
    <message>
        <source>Examples for each topic, from creating tensors to the training loop</source>
        <translation>每个主题都有示例，从创建张量到训练循环</translation>
    </message>
    <message>
        <source>Memory layout</source>
        <translation>内存布局</translation>
    </message>
    <message>
        <source>See how logical elements map onto storage through strides.</source>
        <translation>看逻辑上的元素如何通过步幅 (stride) 映射到存储 (storage) 上。</translation>
    </message>
    <message>
        <source>The logical grid beside the 1-D storage strip it reads, linked by hover</source>
        <translation>逻辑网格与它读取的一维存储条并排显示，鼠标悬停时相互对应</translation>
    </message>
    <message>
        <source>offset + i·s0 + j·s1 = index, with the numbers filled in</source>
        <translation>存储偏移 + i·s0 + j·s1 = 存储下标，代入真实的数值</translation>
    </message>
    <message>
        <source>Views that share one storage drawn over the same strip; stride 0 from expand</source>
        <translation>共享同一存储的视图画在同一条存储条上；expand() 带来的步幅 0</translation>
    </message>
    <message>
        <source>Contiguity explained, and a step-by-step broadcasting explainer</source>
        <translation>解释什么是连续 (contiguous)，并逐步演示广播</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>模型结构</translation>
    </message>
    <message>
        <source>What a model computes, module by module: shapes between layers, repeats folded.</source>
        <translation>逐个模块地看模型计算了什么：层与层之间的形状，重复的块折叠显示。</translation>
    </message>
    <message>
        <source>Every module call and torch op of a real forward, shapes and dtypes on the edges</source>
        <translation>一次真实的前向传播中的每个模块调用和 torch 操作，边上标出形状和数据类型</translation>
    </message>
    <message>
        <source>Repeated blocks folded (GPT2Block × 12), a depth control, boxes that open</source>
        <translation>重复的块折叠显示（GPT2Block × 12），可调节深度，方框可以展开</translation>
    </message>
    <message>
        <source>Models on the meta device: a 70B architecture with no memory</source>
        <translation>meta 设备上的模型：不占内存地查看 70B 模型的结构</translation>
    </message>
    <message>
        <source>Autograd graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>The DAG that autograd really built from grad_fn, and a backward pass you can step.</source>
        <translation>自动求导 (autograd) 根据 grad_fn 真实构建的有向无环图 (DAG)，以及可以单步执行的反向传播。</translation>
    </message>
    <message>
        <source>Backward nodes, AccumulateGrad leaves and saved tensors from grad_fn.next_functions</source>
        <translation>来自 grad_fn.next_functions 的反向节点、叶子张量的累积节点 (AccumulateGrad) 和保存的张量</translation>
    </message>
    <message>
        <source>A native layered layout that copes with shared weights and unrolled loops</source>
        <translation>自己实现的分层布局，能处理共享的权重和展开的循环</translation>
    </message>
    <message>
        <source>Step through backward node by node and watch .grad fill in</source>
        <translation>逐个节点单步执行反向传播，看着 .grad 被填入</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Gradient descent on the reference linear regression, and on networks you shape, live.</source>
        <translation>在参考线性回归和你搭建的网络上实时运行梯度下降。</translation>
    </message>
    <message>
        <source>Loss curve, fitted line, loss surface with the parameter path</source>
        <translation>损失曲线、拟合直线、带参数路径的损失曲面</translation>
    </message>
    <message>
        <source>A playground of tasks and real nn.Sequential networks: boundary, neurons, code</source>
        <translation>任务与真实 nn.Sequential 网络的演练场：决策边界、神经元和代码</translation>
    </message>
    <message>
        <source>Autograd&apos;s w.grad and b.grad next to the hand-derived gradients</source>
        <translation>自动求导 (autograd) 算出的 w.grad 和 b.grad 与手工推导的梯度并排对照</translation>
    </message>
    <message>
        <source>Pitfalls to switch on: forgotten zero_grad, learning rate too large, and more</source>
        <translation>可以打开的常见陷阱：忘记 zero_grad、学习率过大等</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Your own training, live: a run folder that tensorviz.watch() writes, layer by layer.</source>
        <translation>你自己的训练，实时可见：tensorviz.watch() 写出的运行文件夹，一层一层地看。</translation>
    </message>
    <message>
        <source>A layers × steps heatmap of gradient norms that stays readable for 2,000 parameter tensors</source>
        <translation>梯度范数的“层 × 步”热力图，2,000 个参数张量也看得清</translation>
    </message>
    <message>
        <source>Loss and your scalars, update ratios with the 1e-3 guide, activation and gradient histograms over time</source>
        <translation>损失和你记录的标量、带 1e-3 参考线的更新比例、随时间变化的激活与梯度直方图</translation>
    </message>
    <message>
        <source>Diagnoses (vanishing or exploding gradients, the first NaN) that jump to the step and layer</source>
        <translation>诊断（梯度消失或梯度爆炸、第一个 NaN），点击即跳到那一步和那一层</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Open saved tensors and checkpoints safely and see what is inside.</source>
        <translation>安全地打开保存的张量和检查点，看看里面有什么。</translation>
    </message>
    <message>
        <source>.pt / .pth / .bin, safetensors, .npy / .npz, folders and shards — read without running a byte of the file</source>
        <translation>.pt / .pth / .bin、safetensors、.npy / .npz、文件夹和分片——读取时绝不运行文件里的任何代码</translation>
    </message>
    <message>
        <source>Contents as a tree with shapes, dtypes and bytes; storage shared between entries</source>
        <translation>以树形显示内容，带形状、数据类型和字节数；标出条目之间共享的存储</translation>
    </message>
    <message>
        <source>Statistics on demand, and saving workspace tensors back atomically</source>
        <translation>按需计算统计量，并以原子方式把工作区的张量保存为文件</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <source>Two checkpoints side by side: what changed, tensor by tensor, and where the model moved.</source>
        <translation>两个检查点并排对比：逐个张量地看哪里变了，模型在哪些地方发生了变化。</translation>
    </message>
    <message>
        <source>Keys only in A, only in B, renamed (module., _orig_mod., identical bytes)</source>
        <translation>只在 A 中、只在 B 中和被重命名的键（module.、_orig_mod.、字节完全相同）</translation>
    </message>
    <message>
        <source>Per tensor: shape/dtype changes, max |Δ|, ‖Δ‖/‖A‖, cosine, NaN that appeared</source>
        <translation>每个张量：形状/数据类型的变化、最大 |Δ|、‖Δ‖/‖A‖、余弦相似度、新出现的 NaN</translation>
    </message>
    <message>
        <source>Grouped by layer and sorted by change, a bar chart per layer, A/B/A−B values</source>
        <translation>按层分组、按变化排序，每层一根柱的柱状图，A/B/A−B 的数值</translation>
    </message>
</context>
<context>
    <name>ErrorPanel</name>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the message and its explanation</source>
        <translation>复制错误信息及其解释</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>torch says</source>
        <translation>torch 的报错</translation>
    </message>
    <message>
        <source>%1 says</source>
        <translation>%1 的报错</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Fix</source>
        <translation>修正方法</translation>
    </message>
    <message>
        <source>Nothing in the workspace was changed.</source>
        <translation>工作区里的内容没有任何改变。</translation>
    </message>
</context>
<context>
    <name>FilesPlaceholderPanel</name>
    <message>
        <source>Queued to open once PyTorch has loaded (%n):</source>
        <translation>PyTorch 加载完成后将打开的文件（%n 个）：</translation>
    </message>
    <message>
        <source>Files you open (Ctrl+O, Recent files, drag and drop, command line) queue here.</source>
        <translation>你打开的文件（Ctrl+O、最近打开的文件、拖放、命令行）会在这里排队。</translation>
    </message>
</context>
<context>
    <name>LanguageMenu</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>跟随系统</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Checkpoint files (%1)</source>
        <translation>检查点文件 (%1)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Nothing to undo here</source>
        <translation>这里没有可以撤销的操作</translation>
    </message>
    <message>
        <source>Nothing to redo here</source>
        <translation>这里没有可以重做的操作</translation>
    </message>
    <message>
        <source>Queued %n file(s) for the Files area</source>
        <translation>已把 %n 个文件加入“文件”区域的队列</translation>
    </message>
    <message>
        <source>Open tensor files</source>
        <translation>打开张量文件</translation>
    </message>
    <message>
        <source>PyTorch is still loading; Compare opens once it is in.</source>
        <translation>PyTorch 仍在加载；加载完成后才能打开对比。</translation>
    </message>
    <message>
        <source>Open a checkpoint folder</source>
        <translation>打开检查点文件夹</translation>
    </message>
    <message>
        <source>Finishing the PyTorch import before closing…</source>
        <translation>正在完成 PyTorch 的导入，随后关闭…</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>PlaceholderPanel</name>
    <message>
        <source>Loading PyTorch…</source>
        <translation>正在加载 PyTorch…</translation>
    </message>
    <message>
        <source>Not built yet. This is what the area will show:</source>
        <translation>尚未完成。这个区域将会显示：</translation>
    </message>
</context>
<context>
    <name>SessionActions</name>
    <message>
        <source>tensorviz sessions (%1)</source>
        <translation>tensorviz 会话 (%1)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Open &amp;Session…</source>
        <translation>打开会话(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Save Session…</source>
        <translation>保存会话(&amp;S)…</translation>
    </message>
    <message>
        <source>Restore Last Session on Start</source>
        <translation>启动时恢复上次的会话</translation>
    </message>
    <message>
        <source>Closing the window keeps the workspace, script and Training settings for next time</source>
        <translation>关闭窗口时保留工作区、脚本和训练设置，下次启动时恢复</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>Restoring the last session</source>
        <translation>正在恢复上次的会话</translation>
    </message>
    <message>
        <source>Opening %1</source>
        <translation>正在打开 %1</translation>
    </message>
    <message>
        <source>Opened the last session: %n tensor(s) — Edit → Undo brings the previous workspace back</source>
        <translation>已打开上次的会话：%n 个张量。编辑 → 撤销 可以找回之前的工作区</translation>
    </message>
    <message>
        <source>Opened %1: %n tensor(s) — Edit → Undo brings the previous workspace back</source>
        <translation>已打开 %1：%n 个张量。编辑 → 撤销 可以找回之前的工作区</translation>
    </message>
    <message>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>PyTorch is still loading: there is no workspace to save yet.</source>
        <translation>PyTorch 仍在加载：还没有可以保存的工作区。</translation>
    </message>
    <message>
        <source>Saving %1</source>
        <translation>正在保存 %1</translation>
    </message>
    <message>
        <source>Saved %n tensor(s) (%1) to %2</source>
        <translation>已把 %n 个张量（%1）保存到 %2</translation>
    </message>
    <message>
        <source>A session is being saved or opened already</source>
        <translation>已有一个会话正在保存或打开</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>%1: cancelled, nothing changed</source>
        <translation>%1：已取消，没有任何改变</translation>
    </message>
</context>
<context>
    <name>SessionJob</name>
    <message>
        <source>The session could not be written or read: %1.</source>
        <translation>无法写入或读取会话：%1。</translation>
    </message>
    <message>
        <source>The session could not be handled: %1</source>
        <translation>无法处理这个会话：%1</translation>
    </message>
</context>
<context>
    <name>ThemeMenu</name>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
</context>
<context>
    <name>TorchLoader</name>
    <message>
        <source>PyTorch could not be loaded: %1</source>
        <translation>无法加载 PyTorch：%1</translation>
    </message>
</context>
<context>
    <name>WindowMenus</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open tensor files and checkpoints in the Files area</source>
        <translation>在“文件”区域打开张量文件和检查点</translation>
    </message>
    <message>
        <source>Open &amp;Folder…</source>
        <translation>打开文件夹(&amp;F)…</translation>
    </message>
    <message>
        <source>Open a checkpoint folder: shards, configs, a distributed one</source>
        <translation>打开检查点文件夹：分片、配置文件、分布式检查点</translation>
    </message>
    <message>
        <source>Open R&amp;un Folder…</source>
        <translation>打开运行文件夹(&amp;U)…</translation>
    </message>
    <message>
        <source>Follow a run folder of tensorviz.watch() live in the Runs area</source>
        <translation>在“运行”区域实时跟随 tensorviz.watch() 的运行文件夹</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Compare…</source>
        <translation>对比(&amp;C)…</translation>
    </message>
    <message>
        <source>Compare two checkpoints (or two selected entries) tensor by tensor</source>
        <translation>逐个张量地对比两个检查点（或两个选中的条目）</translation>
    </message>
    <message>
        <source>Example &amp;Scripts</source>
        <translation>示例脚本(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>Undo the last change to the workspace</source>
        <translation>撤销对工作区的上一次更改</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Redo what Undo took back</source>
        <translation>重做被撤销的操作</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>查看(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Full Screen</source>
        <translation>全屏(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About tensorviz</source>
        <translation>关于 tensorviz(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 Qt(&amp;Q)</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近打开的文件</translation>
    </message>
    <message>
        <source>Clear Recent Files</source>
        <translation>清除最近打开的文件</translation>
    </message>
</context>
<context>
    <name>WindowStatusBar</name>
    <message>
        <source>torch %1 · %2 · %n threads</source>
        <translation>torch %1 · %2 · %n 个线程</translation>
    </message>
    <message>
        <source>Help → About tensorviz shows the whole environment</source>
        <translation>帮助 → 关于 tensorviz 显示完整的环境信息</translation>
    </message>
    <message>
        <source>PyTorch unavailable</source>
        <translation>PyTorch 不可用</translation>
    </message>
    <message>
        <source>Loading PyTorch…</source>
        <translation>正在加载 PyTorch…</translation>
    </message>
</context>
<context>
    <name>ZoomMenu</name>
    <message>
        <source>&amp;Zoom (%1 %)</source>
        <translation>缩放(&amp;Z) (%1 %)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Reset Zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
</context>
</TS>
