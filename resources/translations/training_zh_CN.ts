<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BoundaryView</name>
    <message>
        <source>Decision boundary</source>
        <translation>决策边界</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>P(class 1) · %1</source>
        <translation>P(类别 1) · %1</translation>
    </message>
    <message>
        <source>The fitted function · %1</source>
        <translation>拟合出的函数 · %1</translation>
    </message>
</context>
<context>
    <name>GradientPlot</name>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>‖grad W‖ (log)</source>
        <translation>‖grad W‖（对数）</translation>
    </message>
    <message>
        <source>epoch 1</source>
        <translation>第 1 轮</translation>
    </message>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>Gradients appear after the first backward pass.</source>
        <translation>第一次反向传播之后才会出现梯度。</translation>
    </message>
</context>
<context>
    <name>GradientView</name>
    <message>
        <source>Gradients, two ways</source>
        <translation>梯度的两种算法</translation>
    </message>
    <message>
        <source>autograd</source>
        <translation>自动求导 (autograd)</translation>
    </message>
    <message>
        <source>by hand</source>
        <translation>手算</translation>
    </message>
    <message>
        <source>by hand: 2/n Σ (w·x + b − y)·x  and  2/n Σ (w·x + b − y)</source>
        <translation>手算：2/n Σ (w·x + b − y)·x  和  2/n Σ (w·x + b − y)</translation>
    </message>
    <message>
        <source>✓ agree to float tolerance</source>
        <translation>✓ 在浮点误差内一致</translation>
    </message>
    <message>
        <source>epoch %1 · |grad| = %2</source>
        <translation>第 %1 轮 · |grad| = %2</translation>
    </message>
    <message>
        <source> (clipped)</source>
        <translation>（已裁剪）</translation>
    </message>
    <message>
        <source>✗ differ</source>
        <translation>✗ 不一致</translation>
    </message>
    <message>
        <source>.grad holds the sum of every step&apos;s gradient since the last zero_grad, not this step&apos;s gradient</source>
        <translation>.grad 保存的是自上次 zero_grad 以来每一步梯度之和，而不是这一步的梯度</translation>
    </message>
</context>
<context>
    <name>LayerRow</name>
    <message>
        <source>nn.Linear(…, units): 1 to %1 neurons</source>
        <translation>nn.Linear(…, units)：1 到 %1 个神经元</translation>
    </message>
    <message>
        <source>the nn module after this layer&apos;s nn.Linear</source>
        <translation>这一层 nn.Linear 之后的激活函数模块</translation>
    </message>
    <message>
        <source>Remove this layer</source>
        <translation>删除这一层</translation>
    </message>
    <message>
        <source>Hidden layer %1</source>
        <translation>隐藏层 %1</translation>
    </message>
</context>
<context>
    <name>LossPlot</name>
    <message>
        <source>epoch</source>
        <translation>轮 (epoch)</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Loss · %1</source>
        <translation>损失 · %1</translation>
    </message>
</context>
<context>
    <name>ModelView</name>
    <message>
        <source>Autograd graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>The loss of the current model on the training samples, as the graph autograd builds, in the Autograd graph area</source>
        <translation>当前模型在训练样本上的损失，显示为自动求导 (autograd) 构建的计算图（在“计算图”区域）</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>模型结构</translation>
    </message>
    <message>
        <source>The model&apos;s layers in the architecture view</source>
        <translation>在模型结构视图里查看模型的各层</translation>
    </message>
    <message>
        <source>%Ln parameters</source>
        <translation>%Ln 个参数</translation>
    </message>
</context>
<context>
    <name>NetworkEditor</name>
    <message>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <source>an input column: %1 (a = x, b = y)</source>
        <translation>一个输入列：%1（a = x，b = y）</translation>
    </message>
    <message>
        <source>+ Add layer</source>
        <translation>+ 添加一层</translation>
    </message>
    <message>
        <source>Add a hidden layer (at most %1)</source>
        <translation>添加一个隐藏层（最多 %1 个）</translation>
    </message>
    <message>
        <source>Set all to…</source>
        <translation>全部设为…</translation>
    </message>
    <message>
        <source>one activation for every hidden layer</source>
        <translation>所有隐藏层用同一个激活函数</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Hidden layers: units, activation</source>
        <translation>隐藏层：神经元数、激活函数</translation>
    </message>
</context>
<context>
    <name>NetworkView</name>
    <message>
        <source>Every neuron over the input plane, and the weights</source>
        <translation>各神经元在输入平面上的输出与权重</translation>
    </message>
    <message>
        <source>in</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>out</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>input feature %1, over the plane</source>
        <translation>输入特征 %1，在整个平面上</translation>
    </message>
    <message>
        <source>the output: the network&apos;s answer over the plane</source>
        <translation>输出：网络在整个平面上的回答</translation>
    </message>
    <message>
        <source>output %1 (class %1): the network&apos;s answer over the plane</source>
        <translation>输出 %1（类别 %1）：网络在整个平面上的回答</translation>
    </message>
    <message>
        <source>layer %1, neuron %2: %3 of its weighted sum, over the plane (orange negative, blue positive)</source>
        <translation>第 %1 层，第 %2 个神经元：它的加权和经过 %3 后在整个平面上的值（橙色为负，蓝色为正）</translation>
    </message>
</context>
<context>
    <name>PhaseView</name>
    <message>
        <source>1 Forward</source>
        <translation>1 前向传播</translation>
    </message>
    <message>
        <source>2 Loss</source>
        <translation>2 损失</translation>
    </message>
    <message>
        <source>3 Backward</source>
        <translation>3 反向传播</translation>
    </message>
    <message>
        <source>4 Update</source>
        <translation>4 更新</translation>
    </message>
    <message>
        <source>5 Zero grad</source>
        <translation>5 梯度清零</translation>
    </message>
    <message>
        <source>One update, phase by phase (Step phase or N)</source>
        <translation>一次更新，逐阶段展示（“单步阶段”或按 N）</translation>
    </message>
    <message>
        <source>Epoch %1, batch %2: %3</source>
        <translation>第 %1 轮，第 %2 批：%3</translation>
    </message>
</context>
<context>
    <name>PlaygroundForm</name>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Samples n</source>
        <translation>样本数 n</translation>
    </message>
    <message>
        <source>Noise</source>
        <translation>噪声</translation>
    </message>
    <message>
        <source>Test fraction</source>
        <translation>测试集比例</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Momentum</source>
        <translation>动量 (momentum)</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>权重衰减</translation>
    </message>
    <message>
        <source>L2</source>
        <translation>L2 正则</translation>
    </message>
    <message>
        <source>Dropout</source>
        <translation>丢弃率 (dropout)</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮数 (epochs)</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>np.random.default_rng(seed) and torch.manual_seed</source>
        <translation>np.random.default_rng(seed) 和 torch.manual_seed</translation>
    </message>
    <message>
        <source>number of samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>std of the Gaussian jitter added to the data</source>
        <translation>加到数据上的高斯抖动的标准差</translation>
    </message>
    <message>
        <source>share of the samples held out for testing</source>
        <translation>留作测试的样本比例</translation>
    </message>
    <message>
        <source>Load x, y…</source>
        <translation>载入 x, y…</translation>
    </message>
    <message>
        <source>a two-column CSV, or a .pt with {&apos;x&apos;: x, &apos;y&apos;: y}</source>
        <translation>两列的 CSV，或保存了 {&apos;x&apos;: x, &apos;y&apos;: y} 的 .pt 文件</translation>
    </message>
    <message>
        <source>Normalise x</source>
        <translation>标准化 x</translation>
    </message>
    <message>
        <source>standardise your x to mean 0, std 1 before training</source>
        <translation>训练前把你的 x 标准化为均值 0、标准差 1</translation>
    </message>
    <message>
        <source>learning rate: the size of each step</source>
        <translation>学习率：每一步的步长</translation>
    </message>
    <message>
        <source>SGD momentum (0: plain gradient descent)</source>
        <translation>SGD 的动量（0：普通梯度下降）</translation>
    </message>
    <message>
        <source>the optimizer&apos;s weight decay</source>
        <translation>优化器的权重衰减 (weight decay)</translation>
    </message>
    <message>
        <source>l2 · Σ ‖W‖² added to the loss (weights only)</source>
        <translation>把 l2 · Σ ‖W‖² 加到损失上（只算权重）</translation>
    </message>
    <message>
        <source>nn.Dropout(p) after each hidden layer</source>
        <translation>每个隐藏层之后的 nn.Dropout(p)</translation>
    </message>
    <message>
        <source>samples per update; full batch: all of them</source>
        <translation>每次更新用的样本数；全批次：全部样本</translation>
    </message>
    <message>
        <source>full batch</source>
        <translation>全批次</translation>
    </message>
    <message>
        <source>how many passes over the training samples</source>
        <translation>遍历全部训练样本的次数</translation>
    </message>
    <message>
        <source>the model and the data are moved there with .to(device)</source>
        <translation>模型和数据用 .to(device) 移到该设备上</translation>
    </message>
    <message>
        <source>Clip ‖grad‖ to</source>
        <translation>把 ‖grad‖ 裁剪到</translation>
    </message>
    <message>
        <source>torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)</source>
        <translation>torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)</translation>
    </message>
    <message>
        <source>max_norm for clip_grad_norm_</source>
        <translation>clip_grad_norm_ 的 max_norm</translation>
    </message>
    <message>
        <source>Forget zero_grad</source>
        <translation>忘记 zero_grad</translation>
    </message>
    <message>
        <source>skip optimizer.zero_grad(): .grad keeps accumulating</source>
        <translation>跳过 optimizer.zero_grad()：.grad 会一直累积</translation>
    </message>
    <message>
        <source>Load a CSV or .pt of x, y</source>
        <translation>载入保存 x, y 的 CSV 或 .pt 文件</translation>
    </message>
</context>
<context>
    <name>PlaygroundPanel</name>
    <message>
        <source>The experiment is still being prepared</source>
        <translation>实验还在准备中</translation>
    </message>
    <message>
        <source>preparing</source>
        <translation>准备中</translation>
    </message>
    <message>
        <source>No script yet: %1</source>
        <translation>还没有脚本：%1</translation>
    </message>
    <message>
        <source>Copied the run as a PyTorch script</source>
        <translation>已把这次运行复制为 PyTorch 脚本</translation>
    </message>
    <message>
        <source>No script: %1</source>
        <translation>没有脚本：%1</translation>
    </message>
    <message>
        <source>Nothing to export yet: train at least one epoch first</source>
        <translation>还没有可导出的内容：请先至少训练一轮</translation>
    </message>
    <message>
        <source>Export script</source>
        <translation>导出脚本</translation>
    </message>
    <message>
        <source>Python (*.py)</source>
        <translation>Python 文件 (*.py)</translation>
    </message>
    <message>
        <source>Export loss history</source>
        <translation>导出损失记录</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export pictures</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export parameters</source>
        <translation>导出参数</translation>
    </message>
    <message>
        <source>PyTorch file (*.pt)</source>
        <translation>PyTorch 文件 (*.pt)</translation>
    </message>
    <message>
        <source>%1 · %2 training, %3 test samples</source>
        <translation>%1 · 训练样本 %2 个，测试样本 %3 个</translation>
    </message>
    <message>
        <source>epoch %1 · train loss %2</source>
        <translation>第 %1 轮 · 训练损失 %2</translation>
    </message>
    <message>
        <source> · test loss %1</source>
        <translation> · 测试损失 %1</translation>
    </message>
    <message>
        <source> · test accuracy %1</source>
        <translation> · 测试准确率 %1</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Training finished: loss %1</source>
        <translation>训练完成：损失 %1</translation>
    </message>
    <message>
        <source>, test accuracy %1</source>
        <translation>，测试准确率 %1</translation>
    </message>
</context>
<context>
    <name>ProblemView</name>
    <message>
        <source>Apply and train again:</source>
        <translation>应用并重新训练：</translation>
    </message>
</context>
<context>
    <name>ResultsView</name>
    <message>
        <source>learned</source>
        <translation>学到的</translation>
    </message>
    <message>
        <source>true</source>
        <translation>真实值</translation>
    </message>
    <message>
        <source>least squares</source>
        <translation>最小二乘</translation>
    </message>
    <message>
        <source>What the tutorial&apos;s loop prints every 100 epochs</source>
        <translation>教程里的循环每 100 轮打印的内容</translation>
    </message>
    <message>
        <source>Parameters — final</source>
        <translation>参数 — 最终</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>initial values from torch.manual_seed(seed); torch.randn(1)</source>
        <translation>初始值来自 torch.manual_seed(seed); torch.randn(1)</translation>
    </message>
    <message>
        <source>epoch %1 · loss %2</source>
        <translation>第 %1 轮 · 损失 %2</translation>
    </message>
</context>
<context>
    <name>RunPanel</name>
    <message>
        <source>ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>preparing…</source>
        <translation>准备中…</translation>
    </message>
    <message>
        <source>Training finished: loss %1</source>
        <translation>训练完成：损失 %1</translation>
    </message>
    <message>
        <source>torch refused the step: %1</source>
        <translation>torch 拒绝了这一步：%1</translation>
    </message>
    <message>
        <source>Applied: %1</source>
        <translation>已应用：%1</translation>
    </message>
    <message>
        <source>The training thread did not stop in time; it is left to end</source>
        <translation>训练线程没有及时停止；让它自行结束</translation>
    </message>
    <message>
        <source>could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Could not save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>The previous experiment is unchanged.</source>
        <translation>之前的实验保持不变。</translation>
    </message>
    <message>
        <source>There is no experiment to train until the settings can be used.</source>
        <translation>在设置可用之前，没有可以训练的实验。</translation>
    </message>
    <message>
        <source>Not applied: %1</source>
        <translation>未应用：%1</translation>
    </message>
    <message>
        <source> · batch %1 / %2 of epoch %3</source>
        <translation> · 第 %3 轮的第 %1 / %2 批</translation>
    </message>
    <message>
        <source> · loss %1 · %2 s · %3</source>
        <translation> · 损失 %1 · %2 s · %3</translation>
    </message>
    <message>
        <source>torch refused the update: %1</source>
        <translation>torch 拒绝了这次更新：%1</translation>
    </message>
</context>
<context>
    <name>ScriptView</name>
    <message>
        <source>Copy as PyTorch</source>
        <translation>复制为 PyTorch 代码</translation>
    </message>
    <message>
        <source>Copy the script to the clipboard (Ctrl+Shift+C)</source>
        <translation>把脚本复制到剪贴板（Ctrl+Shift+C）</translation>
    </message>
    <message>
        <source>Save .py…</source>
        <translation>保存 .py…</translation>
    </message>
    <message>
        <source>Save the script as a .py file</source>
        <translation>把脚本保存为 .py 文件</translation>
    </message>
    <message>
        <source>python script.py reproduces this run bit for bit</source>
        <translation>python script.py 可以逐位复现这次运行</translation>
    </message>
    <message>
        <source>No script: %1</source>
        <translation>没有脚本：%1</translation>
    </message>
</context>
<context>
    <name>TrainingArea</name>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>The tutorial&apos;s linear regression (w, b), or a task for a network you shape</source>
        <translation>教程里的线性回归（w, b），或者用你自己搭的网络来完成的任务</translation>
    </message>
    <message>
        <source>unknown task %1</source>
        <translation>未知任务 %1</translation>
    </message>
</context>
<context>
    <name>TrainingConfigForm</name>
    <message>
        <source>manual (no_grad)</source>
        <translation>手动（no_grad）</translation>
    </message>
    <message>
        <source>Load x, y</source>
        <translation>载入 x, y</translation>
    </message>
    <message>
        <source>x, y data (*.csv *.txt *.pt *.pth)</source>
        <translation>x, y 数据 (*.csv *.txt *.pt *.pth)</translation>
    </message>
    <message>
        <source>Your data: %1</source>
        <translation>你的数据：%1</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮数 (epochs)</translation>
    </message>
    <message>
        <source>Update</source>
        <translation>更新方式</translation>
    </message>
    <message>
        <source>Momentum</source>
        <translation>动量 (momentum)</translation>
    </message>
    <message>
        <source>Weight decay</source>
        <translation>权重衰减</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Samples n</source>
        <translation>样本数 n</translation>
    </message>
    <message>
        <source>Noise</source>
        <translation>噪声</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Pitfalls and remedies</source>
        <translation>常见陷阱与修正方法</translation>
    </message>
    <message>
        <source>learning rate: the size of each step</source>
        <translation>学习率：每一步的步长</translation>
    </message>
    <message>
        <source>how many passes over the data</source>
        <translation>遍历全部数据的次数</translation>
    </message>
    <message>
        <source>manual: with torch.no_grad(): w -= lr * w.grad, then w.grad.zero_()
optim.SGD / optim.Adam: optimizer.zero_grad(), loss.backward(), optimizer.step()</source>
        <translation>手动：`with torch.no_grad(): w -= lr * w.grad`，然后 w.grad.zero_()
optim.SGD / optim.Adam：optimizer.zero_grad()、loss.backward()、optimizer.step()</translation>
    </message>
    <message>
        <source>SGD momentum (0: plain gradient descent)</source>
        <translation>SGD 的动量（0：普通梯度下降）</translation>
    </message>
    <message>
        <source>L2 penalty added by the optimizer</source>
        <translation>优化器加上的 L2 惩罚</translation>
    </message>
    <message>
        <source>samples per update; full batch: all of them</source>
        <translation>每次更新用的样本数；全批次：全部样本</translation>
    </message>
    <message>
        <source>full batch</source>
        <translation>全批次</translation>
    </message>
    <message>
        <source>data and parameters are moved there with .to(device)</source>
        <translation>数据和参数用 .to(device) 移到该设备上</translation>
    </message>
    <message>
        <source>np.random.seed and torch.manual_seed</source>
        <translation>np.random.seed 和 torch.manual_seed</translation>
    </message>
    <message>
        <source>number of samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>standard deviation of the noise added to y</source>
        <translation>加到 y 上的噪声的标准差</translation>
    </message>
    <message>
        <source>Normalise x</source>
        <translation>标准化 x</translation>
    </message>
    <message>
        <source>standardise x to mean 0, std 1 before training</source>
        <translation>训练前把 x 标准化为均值 0、标准差 1</translation>
    </message>
    <message>
        <source>Load x, y…</source>
        <translation>载入 x, y…</translation>
    </message>
    <message>
        <source>a two-column CSV, or a .pt with {&apos;x&apos;: x, &apos;y&apos;: y}</source>
        <translation>两列的 CSV，或保存了 {&apos;x&apos;: x, &apos;y&apos;: y} 的 .pt 文件</translation>
    </message>
    <message>
        <source>Generated</source>
        <translation>生成的数据</translation>
    </message>
    <message>
        <source>back to y = 2.5·x + 1.8 + noise</source>
        <translation>回到 y = 2.5·x + 1.8 + 噪声</translation>
    </message>
    <message>
        <source>Forget zero_grad</source>
        <translation>忘记 zero_grad</translation>
    </message>
    <message>
        <source>skip w.grad.zero_(): .grad adds up every step&apos;s gradient, so updates keep the momentum of all past steps and the loss swings instead of settling</source>
        <translation>跳过 w.grad.zero_()：.grad 会把每一步的梯度累加起来（梯度累积），于是更新带着以往所有步的“动量”，损失来回摆动而不收敛</translation>
    </message>
    <message>
        <source>Forget no_grad()</source>
        <translation>忘记 no_grad()</translation>
    </message>
    <message>
        <source>update without torch.no_grad(): w -= lr * w.grad while autograd records, and torch refuses the in-place change of a leaf</source>
        <translation>不在 torch.no_grad() 里更新：自动求导 (autograd) 记录时执行 w -= lr * w.grad，torch 拒绝对叶子张量做原位操作</translation>
    </message>
    <message>
        <source>Clip ‖grad‖ to</source>
        <translation>把 ‖grad‖ 裁剪到</translation>
    </message>
    <message>
        <source>torch.nn.utils.clip_grad_norm_([w, b], max_norm) before each update</source>
        <translation>每次更新前调用 torch.nn.utils.clip_grad_norm_([w, b], max_norm)</translation>
    </message>
    <message>
        <source>max_norm for clip_grad_norm_</source>
        <translation>clip_grad_norm_ 的 max_norm</translation>
    </message>
    <message>
        <source>x = rand(n, 1)·10
y = 2.5·x + 1.8 + noise·randn(n, 1)</source>
        <translation>x = rand(n, 1)·10
y = 2.5·x + 1.8 + 噪声·randn(n, 1)</translation>
    </message>
</context>
<context>
    <name>TrainingPanel</name>
    <message>
        <source>The experiment is still being prepared</source>
        <translation>实验还在准备中</translation>
    </message>
    <message>
        <source>Export loss history</source>
        <translation>导出损失记录</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export plots</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>Export parameters</source>
        <translation>导出参数</translation>
    </message>
    <message>
        <source>PyTorch file (*.pt)</source>
        <translation>PyTorch 文件 (*.pt)</translation>
    </message>
    <message>
        <source>Nothing to export yet: train at least one epoch first</source>
        <translation>还没有可导出的内容：请先至少训练一轮</translation>
    </message>
    <message>
        <source>Training finished: w = %1, b = %2, loss %3</source>
        <translation>训练完成：w = %1，b = %2，损失 %3</translation>
    </message>
</context>
<context>
    <name>TrainingPlots</name>
    <message>
        <source>epoch</source>
        <translation>轮 (epoch)</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Loss over (w, b) with the path · ★ least squares</source>
        <translation>(w, b) 上的损失与路径 · ★ 最小二乘</translation>
    </message>
    <message>
        <source>Loss per epoch (MSE)</source>
        <translation>每轮的损失 (MSE)</translation>
    </message>
    <message>
        <source>EMA (α = %1)</source>
        <translation>指数移动平均 (EMA, α = %1)</translation>
    </message>
    <message>
        <source>true</source>
        <translation>真实值</translation>
    </message>
    <message>
        <source>%1 of %2 points</source>
        <translation>显示 %2 个点中的 %1 个</translation>
    </message>
    <message>
        <source>Data and the fitted line</source>
        <translation>数据和拟合直线</translation>
    </message>
    <message>
        <source>Data · %1</source>
        <translation>数据 · %1</translation>
    </message>
    <message>
        <source>w and b over time</source>
        <translation>w 和 b 随时间的变化</translation>
    </message>
    <message>
        <source>lstsq</source>
        <translation>最小二乘</translation>
    </message>
    <message>
        <source>%1 over time · %2</source>
        <translation>%1 的变化 · %2</translation>
    </message>
</context>
<context>
    <name>TrainingWorker</name>
    <message>
        <source>phases, slowly</source>
        <translation>逐阶段慢放</translation>
    </message>
    <message>
        <source>1 epoch/s</source>
        <translation>每秒 1 轮</translation>
    </message>
    <message>
        <source>5 epochs/s</source>
        <translation>每秒 5 轮</translation>
    </message>
    <message>
        <source>20 epochs/s</source>
        <translation>每秒 20 轮</translation>
    </message>
    <message>
        <source>100 epochs/s</source>
        <translation>每秒 100 轮</translation>
    </message>
    <message>
        <source>full speed</source>
        <translation>全速</translation>
    </message>
</context>
<context>
    <name>TransportBar</name>
    <message>
        <source>Copy as PyTorch</source>
        <translation>复制为 PyTorch 代码</translation>
    </message>
    <message>
        <source>Script as .py…</source>
        <translation>脚本另存为 .py…</translation>
    </message>
    <message>
        <source>Loss history as CSV…</source>
        <translation>损失记录另存为 CSV…</translation>
    </message>
    <message>
        <source>Pictures as PNG…</source>
        <translation>图像另存为 PNG…</translation>
    </message>
    <message>
        <source>Parameters (state_dict) as .pt…</source>
        <translation>参数（状态字典 (state dict)）另存为 .pt…</translation>
    </message>
    <message>
        <source>Autograd graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Open the autograd graph of the current model&apos;s loss in the Autograd graph area</source>
        <translation>在“计算图”区域打开当前模型损失的计算图</translation>
    </message>
    <message>
        <source>Start again from the seeded initial weights (R)</source>
        <translation>从按种子生成的初始权重重新开始（R）</translation>
    </message>
    <message>
        <source>epoch %1 / %2</source>
        <translation>第 %1 / %2 轮</translation>
    </message>
    <message>
        <source>Plots as PNG…</source>
        <translation>图表另存为 PNG…</translation>
    </message>
    <message>
        <source>Parameters as .pt…</source>
        <translation>参数另存为 .pt…</translation>
    </message>
    <message>
        <source>Loss graph</source>
        <translation>损失的计算图</translation>
    </message>
    <message>
        <source>Open the autograd graph of the loss at the current w, b in the Autograd graph area</source>
        <translation>在“计算图”区域打开当前 w, b 处损失的计算图</translation>
    </message>
    <message>
        <source>Start again from the initial w, b (R)</source>
        <translation>从初始的 w, b 重新开始（R）</translation>
    </message>
    <message>
        <source>Play / pause (Space)</source>
        <translation>播放 / 暂停（空格）</translation>
    </message>
    <message>
        <source>Step epoch</source>
        <translation>单步一轮</translation>
    </message>
    <message>
        <source>Run one whole epoch (→)</source>
        <translation>运行完整的一轮（→）</translation>
    </message>
    <message>
        <source>Step phase</source>
        <translation>单步阶段</translation>
    </message>
    <message>
        <source>Run the next phase: forward, loss, backward, update, zero grad (N)</source>
        <translation>运行下一个阶段：前向传播、损失、反向传播、更新、梯度清零（N）</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Log y</source>
        <translation>对数 y 轴</translation>
    </message>
    <message>
        <source>the loss on a logarithmic axis</source>
        <translation>用对数坐标轴显示损失</translation>
    </message>
    <message>
        <source>Smooth (EMA)</source>
        <translation>平滑 (EMA)</translation>
    </message>
    <message>
        <source>smooth the loss with an exponential moving average (the raw curve stays visible)</source>
        <translation>用指数移动平均平滑损失（原始曲线仍然可见）</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>▶  Play</source>
        <translation>▶  播放</translation>
    </message>
    <message>
        <source>❚❚  Pause</source>
        <translation>❚❚  暂停</translation>
    </message>
    <message>
        <source>Speed: %1 (from slow motion to full speed)</source>
        <translation>速度：%1（从慢放到全速）</translation>
    </message>
</context>
</TS>
