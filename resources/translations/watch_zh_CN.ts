<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
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
        <source>Open this step's batch, outputs, loss, parameters, gradients and autograd graph in a tensorviz window of the training process (Ctrl+Shift+I)</source>
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