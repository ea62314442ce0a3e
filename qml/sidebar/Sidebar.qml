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
            ScrollBar.vertical: ScrollBar {}
            Accessible.name: qsTr("Conversations")
            Accessible.role: Accessible.List

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
    }
}
