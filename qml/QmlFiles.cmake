# The QML files of the `Hearth` module, grouped by screen area. Included by
# app/lib/CMakeLists.txt, which declares the module on target hearth_app.
set(HEARTH_QML_FILES
    Main.qml
    chat/ChatView.qml
    chat/Composer.qml
    sidebar/Sidebar.qml
)
