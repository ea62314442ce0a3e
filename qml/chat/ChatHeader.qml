import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// The model in use (click to choose another), its loading progress with a
// cancel button, and the settings button.
ToolBar {
    id: root

    required property ModelLoader loader
    required property DocumentsController documents
    // Whether the conversations sidebar is shown (the toggle's state).
    property bool sidebarShown: true

    signal modelPickerRequested()
    signal settingsRequested()
    signal documentsRequested()
    signal sidebarToggleRequested()

    background: Rectangle {
        color: Theme.surface
        Rectangle {
            anchors.bottom: parent.bottom
            width: parent.width
            height: 1
            color: Theme.border
        }
    }

    RowLayout {
        anchors.fill: parent
        anchors.leftMargin: 12
        anchors.rightMargin: 8
        spacing: 8

        ToolButton {
            objectName: "sidebarButton"
            text: "☰"
            checkable: false
            Accessible.name: root.sidebarShown ? qsTr("Hide the conversations") : qsTr("Show the conversations")
            ToolTip.visible: hovered
            ToolTip.text: (root.sidebarShown ? qsTr("Hide the conversations") : qsTr("Show the conversations"))
                          + " (Ctrl+B)"
            onClicked: root.sidebarToggleRequested()
        }

        ToolButton {
            objectName: "modelButton"
            Layout.fillWidth: true
            Layout.maximumWidth: implicitWidth
            Accessible.name: qsTr("Choose a model")
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Models (Ctrl+M)")
            onClicked: root.modelPickerRequested()

            contentItem: ColumnLayout {
                spacing: 0

                Label {
                    text: root.loader.modelName.length > 0 ? root.loader.modelName : qsTr("No model loaded")
                    font.bold: true
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                }
                Label {
                    visible: text.length > 0
                    text: root.loader.busy ? qsTr("Loading…") : root.loader.summary
                    font.pixelSize: 12
                    color: Theme.mutedText
                    elide: Text.ElideRight
                    Layout.fillWidth: true
                }
            }
        }

        Label {
            visible: root.loader.warning.length > 0
            text: "⚠"
            color: Theme.warning
            ToolTip.visible: warningArea.containsMouse
            ToolTip.text: root.loader.warning
            Accessible.name: root.loader.warning
            MouseArea {
                id: warningArea
                anchors.fill: parent
                hoverEnabled: true
            }
        }

        Item {
            Layout.fillWidth: true
        }

        Meter {
            objectName: "loadProgress"
            visible: root.loader.busy
            value: root.loader.progress
            Layout.preferredWidth: 160
            Accessible.name: qsTr("Loading the model")
        }
        Button {
            objectName: "cancelLoadButton"
            visible: root.loader.busy
            text: qsTr("Cancel")
            Accessible.name: qsTr("Cancel loading")
            onClicked: root.loader.cancel()
        }
        ToolButton {
            objectName: "documentsButton"
            // How many collections this conversation searches, and indexing.
            text: root.documents.usedCount > 0 ? qsTr("Documents (%1)").arg(root.documents.usedCount)
                                               : qsTr("Documents")
            Accessible.name: root.documents.usedCount > 0
                             ? qsTr("Documents: this chat searches %n collection(s)", "", root.documents.usedCount)
                             : qsTr("Documents")
            ToolTip.visible: hovered
            ToolTip.text: (root.documents.indexing ? root.documents.progressText : qsTr("Ask about your own files"))
                          + " (Ctrl+D)"
            onClicked: root.documentsRequested()

            Rectangle {
                objectName: "indexingDot"
                visible: root.documents.indexing
                anchors.right: parent.right
                anchors.top: parent.top
                anchors.margins: 4
                width: 7
                height: 7
                radius: 3.5
                color: Theme.accent
            }
        }
        ToolButton {
            objectName: "settingsButton"
            text: qsTr("Settings")
            Accessible.name: qsTr("Settings")
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Settings (Ctrl+,)")
            onClicked: root.settingsRequested()
        }
    }
}
