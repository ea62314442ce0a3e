import QtQuick
import QtQuick.Controls
import Hearth

ApplicationWindow {
    id: window

    width: 1100
    height: 720
    minimumWidth: 640
    minimumHeight: 420
    visible: true
    title: AppInfo.name

    SplitView {
        anchors.fill: parent

        Sidebar {
            SplitView.preferredWidth: 260
            SplitView.minimumWidth: 180
        }

        ChatView {
            SplitView.fillWidth: true
        }
    }
}
