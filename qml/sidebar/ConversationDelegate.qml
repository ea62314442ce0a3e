import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// One conversation in the sidebar: its title (or the search snippet), a
// menu to rename or delete it. Renaming edits in place.
ItemDelegate {
    id: root

    required property double conversationId
    required property string title
    required property string snippet
    required property bool current

    property bool editing: false

    signal openRequested(double id)
    signal renameRequested(double id, string title)
    signal deleteRequested(double id)

    function startRename() {
        root.editing = true
    }

    function askDelete() {
        confirm.open()
    }

    function showActions() {
        actions.popup(root, root.width - actions.implicitWidth, root.height)
    }

    // The row the list's keys act on, while the list has the focus.
    readonly property bool keyboardCurrent: root.ListView.isCurrentItem && root.ListView.view
                                            && root.ListView.view.activeFocus

    // The list takes the focus for all its rows (see Sidebar).
    focusPolicy: Qt.NoFocus
    highlighted: root.current
    padding: 8
    onClicked: root.openRequested(root.conversationId)
    Accessible.name: root.title
    Accessible.role: Accessible.ListItem

    background: Rectangle {
        radius: Theme.radius
        color: root.current ? Theme.highlight : root.hovered || root.keyboardCurrent ? Theme.userBubble : "transparent"
    }

    contentItem: RowLayout {
        spacing: 4

        ColumnLayout {
            Layout.fillWidth: true
            spacing: 2

            Label {
                Layout.fillWidth: true
                visible: !root.editing
                text: root.title
                elide: Text.ElideRight
                color: Theme.text
            }
            TextField {
                objectName: "renameField"
                Layout.fillWidth: true
                visible: root.editing
                text: root.title
                Accessible.name: qsTr("Conversation title")
                onVisibleChanged: if (visible) {
                    forceActiveFocus()
                    selectAll()
                }
                onAccepted: {
                    root.renameRequested(root.conversationId, text)
                    root.editing = false
                }
                Keys.onEscapePressed: root.editing = false
                onActiveFocusChanged: if (!activeFocus) root.editing = false
            }
            Label {
                Layout.fillWidth: true
                visible: root.snippet.length > 0
                text: root.snippet
                textFormat: Text.StyledText
                elide: Text.ElideRight
                maximumLineCount: 2
                wrapMode: Text.Wrap
                font.pixelSize: 12
                color: Theme.mutedText
            }
        }

        ToolButton {
            objectName: "conversationMenuButton"
            text: "⋯"
            visible: root.hovered || root.current || root.keyboardCurrent
            focusPolicy: Qt.NoFocus
            Accessible.name: qsTr("Conversation actions")
            onClicked: actions.popup()
        }
    }

    Menu {
        id: actions

        MenuItem {
            objectName: "renameItem"
            text: qsTr("Rename")
            Accessible.name: qsTr("Rename conversation")
            onTriggered: root.startRename()
        }
        MenuItem {
            objectName: "deleteItem"
            text: qsTr("Delete")
            Accessible.name: qsTr("Delete conversation")
            onTriggered: confirm.open()
        }
    }

    Dialog {
        id: confirm

        objectName: "deleteDialog"
        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        width: 380
        title: qsTr("Delete conversation?")
        standardButtons: Dialog.Ok | Dialog.Cancel
        onAccepted: root.deleteRequested(root.conversationId)
        // Says what it does, not "OK".
        Component.onCompleted: confirm.standardButton(Dialog.Ok).text = qsTr("Delete")

        Label {
            width: confirm.availableWidth
            text: qsTr("“%1” and all its messages will be deleted.").arg(root.title)
            wrapMode: Text.Wrap
        }
    }
}
