<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BroadcastExplainer</name>
    <message>
        <source>Broadcasting, step by step</source>
        <translation>广播 (broadcasting)，一步一步看</translation>
    </message>
    <message>
        <source>Type shapes like (3, 1, 5) or take them from workspace tensors. torch aligns them on the right, pads the shorter ones with 1s on the left, and each dim must be equal or contain a 1 — the 1 is stretched (stride 0, no copy).</source>
        <translation>输入 (3, 1, 5) 这样的形状，或从工作区的张量中选取。torch 把它们靠右对齐，在较短的形状左边补 1；每一维的大小必须相等，或者其中有一个是 1——这个 1 会被拉伸（步幅为 0，不拷贝）。</translation>
    </message>
    <message>
        <source>Examples:</source>
        <translation>示例：</translation>
    </message>
    <message>
        <source>+ another shape</source>
        <translation>+ 再加一个形状</translation>
    </message>
    <message>
        <source>shape %1</source>
        <translation>形状 %1</translation>
    </message>
    <message>
        <source>e.g. (3, 1, 5)</source>
        <translation>例如 (3, 1, 5)</translation>
    </message>
    <message>
        <source>Take the shape of a workspace tensor</source>
        <translation>使用工作区中某个张量的形状</translation>
    </message>
    <message>
        <source>shape of…</source>
        <translation>取形状…</translation>
    </message>
    <message>
        <source>Enter at least two shapes.</source>
        <translation>请至少输入两个形状。</translation>
    </message>
    <message>
        <source>dim %1</source>
        <translation>第 %1 维</translation>
    </message>
    <message>
        <source>verdict</source>
        <translation>判定</translation>
    </message>
    <message>
        <source>result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Align the shapes on the right.</source>
        <translation>把各个形状靠右对齐。</translation>
    </message>
    <message>
        <source>Pad the shorter ones with 1s on the left (grey, slanted).</source>
        <translation>较短的形状在左边补 1（灰色斜体）。</translation>
    </message>
    <message>
        <source>Result: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>结果：&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>torch.broadcast_shapes agrees: %1</source>
        <translation>torch.broadcast_shapes 的结果一致：%1</translation>
    </message>
    <message>
        <source>torch.broadcast_shapes DISAGREES: %1</source>
        <translation>torch.broadcast_shapes 的结果不一致：%1</translation>
    </message>
    <message>
        <source>%1 has shape %2</source>
        <translation>%1 的形状是 %2</translation>
    </message>
    <message>
        <source>dim %1 fails — torch names it too:</source>
        <translation>第 %1 维不兼容，torch 的报错也指出了这一维：</translation>
    </message>
    <message>
        <source>%1 raises</source>
        <translation>%1 会报错</translation>
    </message>
</context>
<context>
    <name>LayoutDetails</name>
    <message>
        <source>Element → storage</source>
        <translation>元素 → 存储</translation>
    </message>
    <message>
        <source>Storage cell → elements</source>
        <translation>存储格 → 元素</translation>
    </message>
    <message>
        <source>Layout</source>
        <translation>内存布局</translation>
    </message>
    <message>
        <source>Walk in logical order</source>
        <translation>按逻辑顺序遍历</translation>
    </message>
    <message>
        <source>Try in-place write</source>
        <translation>试一次原位写入</translation>
    </message>
    <message>
        <source>Runs name.add_(1) on a stand-in storage with the same strides, so you see torch&apos;s real answer and the workspace stays as it is</source>
        <translation>在一份步幅相同的替身存储上运行 name.add_(1)：你看到的是 torch 真实的回答，而工作区保持不变</translation>
    </message>
    <message>
        <source>The workspace is empty: create a tensor first.</source>
        <translation>工作区是空的：请先创建一个张量。</translation>
    </message>
    <message>
        <source>Hover over an element of the grid to see its formula. Wheel zooms, drag pans, double-click fits.</source>
        <translation>把鼠标停在网格中的某个元素上，查看它的公式。滚轮缩放，拖动平移，双击显示全部。</translation>
    </message>
    <message>
        <source>Click a storage cell (or an element) to see who reads it.</source>
        <translation>单击一个存储格（或一个元素），查看哪些元素读取它。</translation>
    </message>
</context>
<context>
    <name>LayoutPanel</name>
    <message>
        <source>Strides &amp;&amp; storage</source>
        <translation>步幅与存储</translation>
    </message>
    <message>
        <source>Broadcasting</source>
        <translation>广播</translation>
    </message>
    <message>
        <source>storage cell %1: click to see who reads it</source>
        <translation>存储格 %1：单击查看哪些元素读取它</translation>
    </message>
    <message>
        <source>torch would allow %1.add_(1)</source>
        <translation>torch 允许 %1.add_(1)</translation>
    </message>
    <message>
        <source>Saved the picture to %1</source>
        <translation>图片已保存到 %1</translation>
    </message>
</context>
<context>
    <name>LayoutTexts</name>
    <message>
        <source>Step or Play to read the elements in logical order.</source>
        <translation>单击“下一步”或“播放”，按逻辑顺序读取各个元素。</translation>
    </message>
    <message>
        <source>1 byte</source>
        <translation>1 字节</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>shape [%1] · stride %2 · offset %3 · %4 (%5) · contiguous</source>
        <translation>形状 [%1] · 步幅 %2 · 存储偏移 %3 · %4（%5）· 连续</translation>
    </message>
    <message>
        <source>shape [%1] · stride %2 · offset %3 · %4 (%5) · not contiguous</source>
        <translation>形状 [%1] · 步幅 %2 · 存储偏移 %3 · %4（%5）· 非连续</translation>
    </message>
    <message>
        <source>%1[%2] — each cell shows its value and @ the storage cell it reads, coloured like that cell below (light = start, dark = end).</source>
        <translation>%1[%2]：每个格子显示元素的值，@ 后是它读取的存储格，颜色与下方那个存储格相同（浅 = 存储开头，深 = 末尾）。</translation>
    </message>
    <message>
        <source>no dims</source>
        <translation>没有维度</translation>
    </message>
    <message>
        <source>offset = %1, %2</source>
        <translation>存储偏移 = %1，%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; reads storage cell &lt;b&gt;%2&lt;/b&gt; (byte %3)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; 读取存储格 &lt;b&gt;%2&lt;/b&gt;（第 %3 字节）</translation>
    </message>
    <message>
        <source>Storage cell &lt;b&gt;%1&lt;/b&gt; is not read by %2.</source>
        <translation>%2 没有读取存储格 &lt;b&gt;%1&lt;/b&gt;。</translation>
    </message>
    <message>
        <source>%1 … and %2 more</source>
        <translation>%1 … 以及另外 %2 个</translation>
    </message>
    <message>
        <source>Storage cell &lt;b&gt;%1&lt;/b&gt; is read by &lt;b&gt;1&lt;/b&gt; element of %2.</source>
        <translation>存储格 &lt;b&gt;%1&lt;/b&gt; 被 %2 的 &lt;b&gt;1&lt;/b&gt; 个元素读取。</translation>
    </message>
    <message>
        <source>Storage cell &lt;b&gt;%1&lt;/b&gt; is read by &lt;b&gt;%2&lt;/b&gt; elements of %3 — one cell, many elements: that is stride 0 (expand / broadcasting).</source>
        <translation>存储格 &lt;b&gt;%1&lt;/b&gt; 被 %3 的 &lt;b&gt;%2&lt;/b&gt; 个元素读取：一个存储格，多个元素，这就是步幅 0（expand / 广播）。</translation>
    </message>
    <message>
        <source>%1: shape [%2], stride (%3) elements = %4 bytes, offset %5</source>
        <translation>%1：形状 [%2]，步幅 (%3) 个元素 = %4 字节，存储偏移 %5</translation>
    </message>
    <message>
        <source>dim %1 (%2, size %3)</source>
        <translation>第 %1 维（%2，大小 %3）</translation>
    </message>
    <message>
        <source>&lt;b&gt;Stride 0&lt;/b&gt; in %1: moving along it never moves in memory — many grid cells read one storage cell. expand() made this without copying; repeat() would copy for real.</source>
        <translation>&lt;b&gt;步幅 0&lt;/b&gt; 出现在%1：沿这一维移动时，内存位置始终不变——网格中的许多格子读取同一个存储格。expand() 不拷贝就得到了这种布局；repeat() 则会真正拷贝。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Same storage&lt;/b&gt; (one strip, one colour each):</source>
        <translation>&lt;b&gt;共享存储&lt;/b&gt;（同一条存储条，每个读取者一种颜色）：</translation>
    </message>
    <message>
        <source>step %1 of %2: &lt;b&gt;%3&lt;/b&gt; reads cell &lt;b&gt;%4&lt;/b&gt; — the first element</source>
        <translation>第 %1 步，共 %2 步：&lt;b&gt;%3&lt;/b&gt; 读取存储格 &lt;b&gt;%4&lt;/b&gt;，这是第一个元素</translation>
    </message>
    <message>
        <source>step %1 of %2: &lt;b&gt;%3&lt;/b&gt; reads cell &lt;b&gt;%4&lt;/b&gt; — storage index jumps &lt;b&gt;%5&lt;/b&gt;</source>
        <translation>第 %1 步，共 %2 步：&lt;b&gt;%3&lt;/b&gt; 读取存储格 &lt;b&gt;%4&lt;/b&gt;，存储索引跳了 &lt;b&gt;%5&lt;/b&gt;</translation>
    </message>
</context>
<context>
    <name>LogicalGridView</name>
    <message>
        <source>No elements to show</source>
        <translation>没有可显示的元素</translation>
    </message>
</context>
<context>
    <name>PictureExport</name>
    <message>
        <source>PNG picture (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
    </message>
    <message>
        <source>SVG picture (*.svg)</source>
        <translation>SVG 图片 (*.svg)</translation>
    </message>
    <message>
        <source>Export picture</source>
        <translation>导出图片</translation>
    </message>
    <message>
        <source>Export as .png or .svg, not “%1”.</source>
        <translation>请导出为 .png 或 .svg，而不是“%1”。</translation>
    </message>
    <message>
        <source>no suffix</source>
        <translation>无扩展名</translation>
    </message>
    <message>
        <source>tensorviz memory layout</source>
        <translation>tensorviz 内存布局</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>SliceControls</name>
    <message>
        <source>rows:</source>
        <translation>行：</translation>
    </message>
    <message>
        <source>columns:</source>
        <translation>列：</translation>
    </message>
    <message>
        <source>  %1 (dim %2):</source>
        <translation>  %1（第 %2 维）：</translation>
    </message>
    <message>
        <source>dim %1 (%2), size %3</source>
        <translation>第 %1 维 (%2)，大小 %3</translation>
    </message>
    <message>
        <source>dim %1 (%2)</source>
        <translation>第 %1 维 (%2)</translation>
    </message>
</context>
<context>
    <name>StorageStripView</name>
    <message>
        <source>Storage of %1: %2 cells × %3 bytes = %4 bytes  ·  read by %5</source>
        <translation>%1 的存储：%2 格 × %3 字节 = %4 字节  ·  读取者：%5</translation>
    </message>
    <message>
        <source>Other storage: %1 cells × %2 bytes = %3 bytes  ·  read by %4</source>
        <translation>其他存储：%1 格 × %2 字节 = %3 字节  ·  读取者：%4</translation>
    </message>
    <message>
        <source>storage</source>
        <translation>存储</translation>
    </message>
</context>
<context>
    <name>StridesTab</name>
    <message>
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <source>Export SVG…</source>
        <translation>导出 SVG…</translation>
    </message>
    <message>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
</context>
<context>
    <name>WalkControls</name>
    <message>
        <source>Previous element in logical order</source>
        <translation>按逻辑顺序的上一个元素</translation>
    </message>
    <message>
        <source>Step ▶</source>
        <translation>下一步 ▶</translation>
    </message>
    <message>
        <source>Next element in logical order</source>
        <translation>按逻辑顺序的下一个元素</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source> /s</source>
        <translation> 步/秒</translation>
    </message>
    <message>
        <source>Steps per second while playing</source>
        <translation>播放时每秒走几步</translation>
    </message>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
</context>
</TS>
