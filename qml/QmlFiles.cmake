# The QML files of the `Hearth` module, grouped by screen area. Included by
# app/lib/CMakeLists.txt, which declares the module on target hearth_app.
set(HEARTH_QML_FILES
    Main.qml
    chat/ChatHeader.qml
    chat/ChatView.qml
    chat/CodeBlock.qml
    chat/Composer.qml
    chat/EditBox.qml
    chat/MarkdownBlock.qml
    chat/MessageDelegate.qml
    chat/TextBlock.qml
    common/AboutDialog.qml
    common/Banner.qml
    common/DropOverlay.qml
    common/Meter.qml
    gauges/GaugeBar.qml
    gauges/GaugeFigure.qml
    models/GetModelsPage.qml
    models/ModelDelegate.qml
    models/ModelPicker.qml
    settings/SettingRow.qml
    settings/SettingsPanel.qml
    sidebar/ConversationDelegate.qml
    sidebar/Sidebar.qml
)
