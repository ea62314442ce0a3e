import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// Conversations grouped by date, a search through all of them, new chat.
Pane {
    id: root

    required property AppSession session

    signal aboutRequested

    function focusSearch() {
        search.forceActiveFocus()
        search.selectAll()
    }

    // Opens the conversation in row `row` of the list (keyboard).
    function openRow(row) {
        const item = list.itemAtIndex(row) as ConversationDelegate
        if (item)
            root.session.chat.openConversation(item.conversationId)
    }

    padding: 10
    background: Rectangle {
        color: Theme.sidebar
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 8

        RowLayout {
            Layout.fillWidth: true
            spacing: 8

            Image {
                source: "qrc:/hearth/icons/hearth.svg"
                sourceSize.width: 28
                sourceSize.height: 28
                Accessible.ignored: true
            }
            Label {
                Layout.fillWidth: true
                text: AppInfo.name
                font.pixelSize: 20
                font.bold: true
                Accessible.role: Accessible.Heading
                Accessible.name: text
            }
            ToolButton {
                objectName: "aboutButton"
                text: "?"
                ToolTip.visible: hovered
                ToolTip.text: qsTr("About %1 (F1)").arg(AppInfo.name)
                Accessible.name: qsTr("About %1").arg(AppInfo.name)
                Accessible.role: Accessible.Button
                onClicked: root.aboutRequested()
            }
        }

        Button {
            objectName: "newChatButton"
            Layout.fillWidth: true
            text: qsTr("New chat")
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Start a new conversation (Ctrl+N)")
            Accessible.name: qsTr("New chat")
            Accessible.role: Accessible.Button
            onClicked: root.session.chat.newConversation()
        }

        TextField {
            id: search

            objectName: "searchField"
            Layout.fillWidth: true
            placeholderText: qsTr("Search conversations")
            text: root.session.conversations.searchText
            onTextEdited: root.session.conversations.searchText = text
            Keys.onEscapePressed: {
                text = ""
                root.session.conversations.searchText = ""
            }
            // Down goes to the results (then arrows and Enter there); Enter opens the first.
            Keys.onDownPressed: {
                if (list.count === 0)
                    return
                list.currentIndex = 0
                list.forceActiveFocus(Qt.TabFocusReason)
            }
            Keys.onReturnPressed: root.openRow(0)
            Keys.onEnterPressed: root.openRow(0)
            Accessible.name: qsTr("Search conversations")
            Accessible.role: Accessible.EditableText
        }

        ListView {
            id: list

            objectName: "conversationList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            spacing: 2
            model: root.session.conversations
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar {
                Accessible.name: qsTr("Scroll the conversations")
            }
            Accessible.name: qsTr("Conversations")
            Accessible.role: Accessible.List
            // One Tab stop for the whole list: arrows choose a row, Enter or
            // Space opens it, F2 renames, Delete deletes, Menu shows actions.
            activeFocusOnTab: true
            keyNavigationEnabled: true
            currentIndex: -1
            onActiveFocusChanged: if (activeFocus && currentIndex < 0 && count > 0) currentIndex = 0
            Keys.onReturnPressed: root.openRow(list.currentIndex)
            Keys.onEnterPressed: root.openRow(list.currentIndex)
            Keys.onSpacePressed: root.openRow(list.currentIndex)
            Keys.onPressed: event => {
                const item = list.currentItem
                if (!item)
                    return
                if (event.key === Qt.Key_F2) {
                    item.startRename()
                    event.accepted = true
                } else if (event.key === Qt.Key_Delete) {
                    item.askDelete()
                    event.accepted = true
                } else if (event.key === Qt.Key_Menu || (event.key === Qt.Key_F10 && (event.modifiers & Qt.ShiftModifier))) {
                    item.showActions()
                    event.accepted = true
                }
            }

            section.property: "section"
            section.delegate: Label {
                required property string section

                width: ListView.view.width
                topPadding: 12
                bottomPadding: 4
                leftPadding: 6
                text: section
                font.pixelSize: 12
                font.bold: true
                color: Theme.mutedText
                Accessible.role: Accessible.Heading
                Accessible.name: section
            }

            delegate: ConversationDelegate {
                width: ListView.view.width
                onOpenRequested: id => root.session.chat.openConversation(id)
                onRenameRequested: (id, title) => root.session.conversations.rename(id, title)
                onDeleteRequested: id => root.session.conversations.remove(id)
            }

            Label {
                objectName: "noConversationsLabel"
                anchors.centerIn: parent
                width: parent.width - 20
                horizontalAlignment: Text.AlignHCenter
                wrapMode: Text.Wrap
                visible: list.count === 0
                text: root.session.conversations.searchText.length > 0 ? qsTr("Nothing found")
                                                                       : qsTr("No conversations yet")
                color: Theme.mutedText
            }
        }

        // A delete can be undone for a few seconds.
        Rectangle {
            objectName: "undoBar"
            Layout.fillWidth: true
            visible: root.session.conversations.pendingRemovalTitle.length > 0
            implicitHeight: visible ? undoRow.implicitHeight + 12 : 0
            radius: Theme.radius
            color: Theme.userBubble
            border.color: Theme.border
            Accessible.role: Accessible.AlertMessage
            Accessible.name: undoLabel.text

            RowLayout {
                id: undoRow

                anchors.fill: parent
                anchors.margins: 6
                spacing: 6

                Label {
                    id: undoLabel

                    Layout.fillWidth: true
                    text: qsTr("Deleted “%1”").arg(root.session.conversations.pendingRemovalTitle)
                    elide: Text.ElideRight
                    color: Theme.text
                }
                Button {
                    objectName: "undoDeleteButton"
                    text: qsTr("Undo")
                    Accessible.name: qsTr("Undo the delete")
                    onClicked: root.session.conversations.undoRemove()
                }
            }
        }
    }
}
