<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DiagnosesBanner</name>
    <message numerus="yes">
        <source>and %n more</source>
        <translation>
            <numerusform>另有 %n 条</numerusform>
        </translation>
    </message>
    <message>
        <source>Show this step and layer in the heatmap</source>
        <translation>在热力图中显示这一步和这一层</translation>
    </message>
</context>
<context>
    <name>GradientHeatmap</name>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>steps %1–%2 (largest)</source>
        <translation>第 %1–%2 步（最大值）</translation>
    </message>
    <message>
        <source>no gradient</source>
        <translation>没有梯度</translation>
    </message>
    <message>
        <source>Point at a cell: its parameter, step and ‖grad‖ · click a row: its update ratio and histograms (Ctrl+click adds a ratio line)</source>
        <translation>指向一个格子：它的参数、步数和 ‖梯度‖ · 点击一行：它的更新比例和直方图（Ctrl+点击再加一条比例曲线）</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>log₁₀ ‖grad‖</source>
        <translation>log₁₀ ‖梯度‖</translation>
    </message>
</context>
<context>
    <name>HistogramViews</name>
    <message>
        <source>no histograms yet</source>
        <translation>还没有直方图</translation>
    </message>
    <message>
        <source>Output of %1</source>
        <translation>%1 的输出</translation>
    </message>
    <message>
        <source>Gradient of %1</source>
        <translation>%1 的梯度</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>LossPlot</name>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Loss per step</source>
        <translation>每步的损失</translation>
    </message>
    <message>
        <source>%1 per step</source>
        <translation>每步的 %1</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>进程 (rank) %1</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
</context>
<context>
    <name>RatioPlot</name>
    <message>
        <source>Update ratio ‖Δw‖/‖w‖ · guide 1e-3</source>
        <translation>更新比例 ‖Δw‖/‖w‖ · 参考线 1e-3</translation>
    </message>
    <message>
        <source>click a row of the heatmap</source>
        <translation>点击热力图的一行</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>ratio</source>
        <translation>比例</translation>
    </message>
</context>
<context>
    <name>RunLinks</name>
    <message>
        <source>The run opens in the Runs area once PyTorch has loaded</source>
        <translation>PyTorch 加载完成后，这次运行会在“运行”区域打开</translation>
    </message>
    <message>
        <source>Open a run folder</source>
        <translation>打开运行文件夹</translation>
    </message>
</context>
<context>
    <name>RunStatus</name>
    <message>
        <source>live · waiting for the first step</source>
        <translation>实时 · 等待第一步</translation>
    </message>
    <message>
        <source>live · step %1</source>
        <translation>实时 · 第 %1 步</translation>
    </message>
    <message>
        <source>no new step for %2 s · step %1 (the run may have stopped)</source>
        <translation>%2 秒没有新的一步 · 第 %1 步（运行可能已停止）</translation>
    </message>
    <message>
        <source>finished · %1 steps</source>
        <translation>已完成 · 共 %1 步</translation>
    </message>
    <message>
        <source>stopped at step %1 (interrupted)</source>
        <translation>停在第 %1 步（被中断）</translation>
    </message>
    <message>
        <source>stopped at step %1 with %2</source>
        <translation>停在第 %1 步，出错：%2</translation>
    </message>
    <message>
        <source>an error</source>
        <translation>一个错误</translation>
    </message>
    <message>
        <source>%1 ranks</source>
        <translation>%1 个进程 (rank)</translation>
    </message>
    <message>
        <source>%1 records dropped by the recorder</source>
        <translation>记录器丢弃了 %1 条记录</translation>
    </message>
</context>
<context>
    <name>RunsPanel</name>
    <message>
        <source>Open Run Folder…</source>
        <translation>打开运行文件夹…</translation>
    </message>
    <message>
        <source>A folder that tensorviz.watch() or `tensorviz watch` writes (runs/…)</source>
        <translation>tensorviz.watch() 或 `tensorviz watch` 写出的文件夹（runs/…）</translation>
    </message>
    <message>
        <source>Other runs in the same folder, newest first</source>
        <translation>同一文件夹中的其他运行，最新的在前</translation>
    </message>
    <message>
        <source>The rank whose heatmap, ratios and histograms show</source>
        <translation>显示哪个进程 (rank) 的热力图、更新比例和直方图</translation>
    </message>
    <message>
        <source>The loss, or a scalar the loop logged</source>
        <translation>损失，或训练循环记录的某个标量</translation>
    </message>
    <message>
        <source>Compare with…</source>
        <translation>与…比较</translation>
    </message>
    <message>
        <source>Overlay a second run&apos;s curve on this one&apos;s</source>
        <translation>把另一次运行的曲线叠加在这次的曲线上</translation>
    </message>
    <message>
        <source>Stop comparing</source>
        <translation>停止比较</translation>
    </message>
    <message>
        <source>Open a run folder</source>
        <translation>打开运行文件夹</translation>
    </message>
    <message>
        <source>Compare with a run folder</source>
        <translation>与一个运行文件夹比较</translation>
    </message>
    <message>
        <source>No run open · File → Open Run Folder…, or `tensorviz RUN_FOLDER`</source>
        <translation>没有打开的运行 · 文件 → 打开运行文件夹…，或 `tensorviz RUN_FOLDER`</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>进程 (rank) %1</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
</context>
<context>
    <name>StepControlBar</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Run to step</source>
        <translation>运行到第几步</translation>
    </message>
    <message>
        <source>Inspect this step</source>
        <translation>查看这一步</translation>
    </message>
    <message>
        <source>Hold your training loop at its next step boundary (F6)</source>
        <translation>在下一个步边界处停住你的训练循环 (F6)</translation>
    </message>
    <message>
        <source>Let one more step run, then hold again (F10)</source>
        <translation>再运行一步，然后再次停住 (F10)</translation>
    </message>
    <message>
        <source>Let the loop run on at full speed (F8)</source>
        <translation>让循环全速继续运行 (F8)</translation>
    </message>
    <message>
        <source>Run until the step in the box, then hold there (Ctrl+Shift+R)</source>
        <translation>运行到框中的那一步，然后停在那里 (Ctrl+Shift+R)</translation>
    </message>
    <message>
        <source>The step to hold the loop at</source>
        <translation>让循环停住的那一步</translation>
    </message>
    <message>
        <source>Open this step&apos;s batch, outputs, loss, parameters, gradients and autograd graph in a tensorviz window of the training process (Ctrl+Shift+I)</source>
        <translation>在训练进程的 tensorviz 窗口中打开这一步的批次、输出、损失、参数、梯度和自动求导计算图 (Ctrl+Shift+I)</translation>
    </message>
    <message>
        <source>stopped with an error at step %1</source>
        <translation>在第 %1 步出错停止</translation>
    </message>
    <message>
        <source>interrupted at step %1</source>
        <translation>在第 %1 步被中断</translation>
    </message>
    <message>
        <source>finished at step %1</source>
        <translation>在第 %1 步完成</translation>
    </message>
    <message>
        <source>paused at step %1</source>
        <translation>暂停在第 %1 步</translation>
    </message>
    <message>
        <source>%1 · opening it in the training process…</source>
        <translation>%1 · 正在训练进程中打开…</translation>
    </message>
    <message>
        <source>running · step %1 · pausing…</source>
        <translation>运行中 · 第 %1 步 · 正在暂停…</translation>
    </message>
    <message>
        <source>running · step %1</source>
        <translation>运行中 · 第 %1 步</translation>
    </message>
    <message>
        <source>waiting for the first step</source>
        <translation>等待第一步</translation>
    </message>
</context>
</TS>
