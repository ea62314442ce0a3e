import QtQuick
import QtQuick.Controls
import Hearth

// Accepts a .gguf file dropped anywhere on the window: the library
// validates it, lists it where it is and loads it.
DropArea {
    id: root

    required property ModelLibrary library

    keys: ["text/uri-list"]
    onEntered: drag => drag.accepted = drag.urls.length > 0 && root.library.acceptsUrl(drag.urls[0])
    onDropped: drop => {
        root.library.openFile(drop.urls[0])
        drop.accept()
    }

    Rectangle {
        anchors.fill: parent
        visible: root.containsDrag
        color: Qt.rgba(Theme.accent.r, Theme.accent.g, Theme.accent.b, 0.12)
        border.color: Theme.accent
        border.width: 3
        radius: Theme.radius

        Label {
            anchors.centerIn: parent
            text: qsTr("Drop to open this model")
            font.pixelSize: 24
            color: Theme.accent
        }
    }
}
