<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
</context>
</TS>
