<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CapturedList</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>tensor.requires_grad: autograd records what is computed from it</source>
        <translation>tensor.requires_grad：自动求导 (autograd) 会记录由它计算出的一切</translation>
    </message>
    <message>
        <source>tensor.is_leaf: made by you, not by an operation autograd recorded</source>
        <translation>tensor.is_leaf：由你直接创建，而不是由自动求导记录的某个操作产生（叶子张量）</translation>
    </message>
    <message>
        <source>tensor.grad_fn: the backward node that made it (None for a leaf)</source>
        <translation>tensor.grad_fn：产生它的反向传播节点（叶子张量为 None）</translation>
    </message>
    <message>
        <source>tensor.grad: filled in by backward() on leaves (non-leaves: only retain_grad())</source>
        <translation>tensor.grad：backward() 会为叶子张量填入梯度（非叶子张量只有调用 retain_grad() 后才有）</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Workbench</source>
        <translation>工作台</translation>
    </message>
    <message>
        <source>Open the Workbench on this tensor: identity and values</source>
        <translation>在工作台中打开这个张量：查看它的身份信息和数值</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>内存布局</translation>
    </message>
    <message>
        <source>Open the Memory layout: how it reads storage</source>
        <translation>打开内存布局：查看它如何读取存储</translation>
    </message>
    <message>
        <source>Captured before the error on line %1</source>
        <translation>第 %1 行出错前已捕获的张量</translation>
    </message>
    <message>
        <source>Captured</source>
        <translation>已捕获的张量</translation>
    </message>
    <message>
        <source>new</source>
        <translation>新增</translation>
    </message>
    <message>
        <source>updated</source>
        <translation>已更新</translation>
    </message>
    <message>
        <source>before error</source>
        <translation>出错前</translation>
    </message>
    <message>
        <source>written</source>
        <translation>已原位写入</translation>
    </message>
    <message>
        <source>%1 — from script, line %2</source>
        <translation>%1 —— 来自脚本第 %2 行</translation>
    </message>
    <message>
        <source>changed in place</source>
        <translation>被原位修改</translation>
    </message>
    <message>
        <source>%1 — from script</source>
        <translation>%1 —— 来自脚本</translation>
    </message>
    <message>
        <source>%1 — as it was before the error on line %2</source>
        <translation>%1 —— 这是第 %2 行出错前的状态</translation>
    </message>
    <message>
        <source>Open the Autograd graph of this tensor</source>
        <translation>打开这个张量的计算图</translation>
    </message>
    <message>
        <source>Only a tensor made by an operation on tensors that require grad has a graph</source>
        <translation>只有对需要梯度 (requires_grad) 的张量做操作得到的张量才有计算图</translation>
    </message>
    <message>
        <source>The run was undone.</source>
        <translation>这次运行已被撤销。</translation>
    </message>
</context>
<context>
    <name>OutputView</name>
    <message>
        <source>What the script prints appears here.</source>
        <translation>脚本打印的内容会显示在这里。</translation>
    </message>
    <message>
        <source>… %1 characters of output dropped here …</source>
        <translation>… 此处丢弃了 %1 个字符的输出 …</translation>
    </message>
</context>
<context>
    <name>ScriptErrorBox</name>
    <message>
        <source>Put the cursor on the line that failed</source>
        <translation>把光标移到出错的那一行</translation>
    </message>
    <message>
        <source>Go to line %1</source>
        <translation>转到第 %1 行</translation>
    </message>
    <message>
        <source>The workspace&apos;s own tensors are as they were before the run; what the run made before the error is in the Captured list.</source>
        <translation>工作区原有的张量保持运行前的状态；这次运行在出错前创建的张量列在“已捕获的张量”中。</translation>
    </message>
    <message>
        <source>Line %1: SyntaxError: %2 — nothing ran</source>
        <translation>第 %1 行：SyntaxError: %2 —— 没有运行任何代码</translation>
    </message>
    <message>
        <source>Line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
</context>
<context>
    <name>ScriptPanel</name>
    <message>
        <source>Runs %1 in %2</source>
        <translation>运行 %1，运行环境：%2</translation>
    </message>
    <message>
        <source>Runs in %1</source>
        <translation>运行环境：%1</translation>
    </message>
    <message>
        <source>Scripts run in tensorviz&apos;s own Python: a package it lacks cannot be imported. Install tensorviz into your environment (pip install path/to/tensorviz) to run it there.</source>
        <translation>脚本在 tensorviz 自己的 Python 中运行：这个环境里没有的包无法导入。把 tensorviz 安装到你自己的环境中（pip install path/to/tensorviz），就能在那里运行。</translation>
    </message>
    <message>
        <source>Open a Python script</source>
        <translation>打开 Python 脚本</translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation>Python 脚本 (*.py)</translation>
    </message>
    <message>
        <source>%1 cannot be opened: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Opened %1 — it runs as python %1 does, in its folder</source>
        <translation>已打开 %1 —— 它会像 python %1 那样在自己的文件夹中运行</translation>
    </message>
    <message>
        <source>Example “%1” loaded — Ctrl+Z in the editor brings your text back</source>
        <translation>已载入示例“%1”—— 在编辑器中按 Ctrl+Z 可以找回你原来的代码</translation>
    </message>
    <message>
        <source>Example “%1” loaded</source>
        <translation>已载入示例“%1”</translation>
    </message>
    <message>
        <source>▶ Run at %1</source>
        <translation>▶ 运行于 %1</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
    <message>
        <source>%1 characters of this run&apos;s output were dropped: a run keeps its newest %2 and the pane shows what it could keep up with</source>
        <translation>这次运行丢弃了 %1 个字符的输出：每次运行只保留最新的 %2 个字符，输出窗格只显示来得及显示的内容</translation>
    </message>
    <message>
        <source>The pane keeps the last %1 lines; older ones left</source>
        <translation>输出窗格只保留最后 %1 行；更早的行已移除</translation>
    </message>
    <message>
        <source>The run&apos;s tensors could not be added: %1</source>
        <translation>无法添加这次运行的张量：%1</translation>
    </message>
    <message>
        <source>Nothing was captured: %1</source>
        <translation>没有捕获任何张量：%1</translation>
    </message>
    <message>
        <source>Finished, but nothing was captured</source>
        <translation>运行完成，但没有捕获任何张量</translation>
    </message>
    <message>
        <source>%1 — Edit → Undo takes the run back</source>
        <translation>%1 —— 编辑 → 撤销 可以撤回这次运行</translation>
    </message>
    <message>
        <source>■ Stopped at line %1; the workspace is as it was before the run</source>
        <translation>■ 已在第 %1 行停止；工作区保持运行前的状态</translation>
    </message>
    <message>
        <source>Stopped at line %1: a stopped run&apos;s tensors are discarded.</source>
        <translation>已在第 %1 行停止：被停止的运行所产生的张量都会被丢弃。</translation>
    </message>
    <message>
        <source>■ Stopped; the workspace is as it was before the run</source>
        <translation>■ 已停止；工作区保持运行前的状态</translation>
    </message>
    <message>
        <source>Stopped: a stopped run&apos;s tensors are discarded.</source>
        <translation>已停止：被停止的运行所产生的张量都会被丢弃。</translation>
    </message>
    <message>
        <source>Syntax error on line %1 — nothing ran</source>
        <translation>第 %1 行有语法错误 —— 没有运行任何代码</translation>
    </message>
    <message>
        <source>Syntax error on line %1: nothing ran.</source>
        <translation>第 %1 行有语法错误：没有运行任何代码。</translation>
    </message>
    <message>
        <source>Nothing to undo</source>
        <translation>没有可以撤销的操作</translation>
    </message>
    <message>
        <source>Undid %1</source>
        <translation>已撤销：%1</translation>
    </message>
    <message>
        <source>Nothing to redo</source>
        <translation>没有可以重做的操作</translation>
    </message>
    <message>
        <source>Redid %1</source>
        <translation>已重做：%1</translation>
    </message>
</context>
<context>
    <name>ScriptStatus</name>
    <message>
        <source>Running… %1 s — line %2</source>
        <translation>正在运行… %1 秒 —— 第 %2 行</translation>
    </message>
    <message>
        <source>Running… %1 s</source>
        <translation>正在运行… %1 秒</translation>
    </message>
    <message>
        <source>Stopping: waiting for %1 on line %2 to return — one torch call cannot be interrupted mid-way; the run&apos;s results will be discarded</source>
        <translation>正在停止：等待第 %2 行的 %1 返回 —— 单个 torch 调用无法在中途打断；这次运行的结果将被丢弃</translation>
    </message>
    <message>
        <source>Stopping: waiting for %1 to return — one torch call cannot be interrupted mid-way; the run&apos;s results will be discarded</source>
        <translation>正在停止：等待 %1 返回 —— 单个 torch 调用无法在中途打断；这次运行的结果将被丢弃</translation>
    </message>
    <message>
        <source>Stopping: waiting for line %1 (`%2`) to return — one torch call cannot be interrupted mid-way; the run&apos;s results will be discarded</source>
        <translation>正在停止：等待第 %1 行（`%2`）执行完 —— 单个 torch 调用无法在中途打断；这次运行的结果将被丢弃</translation>
    </message>
    <message>
        <source>Stopping: waiting for the script to return — one torch call cannot be interrupted mid-way; the run&apos;s results will be discarded</source>
        <translation>正在停止：等待脚本返回 —— 单个 torch 调用无法在中途打断；这次运行的结果将被丢弃</translation>
    </message>
    <message>
        <source>Failed at line %1 — the workspace is as it was before the run</source>
        <translation>在第 %1 行失败 —— 工作区保持运行前的状态</translation>
    </message>
    <message>
        <source>Failed — the workspace is as it was before the run</source>
        <translation>运行失败 —— 工作区保持运行前的状态</translation>
    </message>
    <message>
        <source>Stopped at line %1</source>
        <translation>已在第 %1 行停止</translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
</context>
<context>
    <name>ScriptToolbar</name>
    <message>
        <source>▶  Run</source>
        <translation>▶  运行</translation>
    </message>
    <message>
        <source>Run the script (Ctrl+Enter)</source>
        <translation>运行脚本（Ctrl+Enter）</translation>
    </message>
    <message>
        <source>■  Stop</source>
        <translation>■  停止</translation>
    </message>
    <message>
        <source>Stop the running script (Esc)</source>
        <translation>停止正在运行的脚本（Esc）</translation>
    </message>
    <message>
        <source>Open…</source>
        <translation>打开…</translation>
    </message>
    <message>
        <source>Open a .py file: it runs as python SCRIPT.py runs it (its folder first on sys.path, __file__, its path in tracebacks)</source>
        <translation>打开一个 .py 文件：它会像 python SCRIPT.py 那样运行（它的文件夹排在 sys.path 最前面，有 __file__，回溯中显示它的路径）</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>Load a short script for one topic of PyTorch</source>
        <translation>载入一段讲解 PyTorch 某个主题的简短脚本</translation>
    </message>
    <message>
        <source>Leaves %1 in the workspace</source>
        <translation>运行后会在工作区留下 %1</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>模型结构</translation>
    </message>
    <message>
        <source>See the forward of a model the last run called, module by module, on its input</source>
        <translation>逐个模块查看上次运行调用过的模型在其输入上的前向传播</translation>
    </message>
    <message>
        <source>Architecture of %1</source>
        <translation>%1 的模型结构</translation>
    </message>
    <message>
        <source>Clear output</source>
        <translation>清空输出</translation>
    </message>
</context>
</TS>
