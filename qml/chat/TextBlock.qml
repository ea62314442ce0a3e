import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// A text block of a message: paragraph, heading (by level), list item
// (indented by depth, with its marker), quote (with a bar), table, or a
// horizontal rule.
Item {
    id: root

    property int kind: MessageBlocksModel.Paragraph
    property int level: 0
    property string marker
    property string html

    readonly property bool isRule: root.kind === MessageBlocksModel.Rule

    implicitHeight: root.isRule ? 13 : row.implicitHeight

    Rectangle {
        visible: root.isRule
        anchors.verticalCenter: parent.verticalCenter
        width: parent.width
        height: 1
        color: Theme.border
    }

    RowLayout {
        id: row

        visible: !root.isRule
        width: parent.width
        spacing: 6

        Item { // list indentation
            visible: root.kind === MessageBlocksModel.ListItem
            Layout.preferredWidth: 18 * root.level
        }
        Rectangle { // quote bar
            visible: root.kind === MessageBlocksModel.Quote
            Layout.fillHeight: true
            Layout.preferredWidth: 3
            color: Theme.border
        }
        Label {
            visible: root.kind === MessageBlocksModel.ListItem
            Layout.alignment: Qt.AlignTop
            Layout.minimumWidth: 16
            text: root.marker
            font.pixelSize: 15
            color: Theme.mutedText
        }
        TextEdit {
            Layout.fillWidth: true
            readOnly: true
            selectByMouse: true
            textFormat: TextEdit.RichText
            wrapMode: TextEdit.Wrap
            text: root.isRule ? "" : root.html
            color: root.kind === MessageBlocksModel.Quote ? Theme.mutedText : Theme.text
            selectionColor: Theme.accent
            selectedTextColor: Theme.accentText
            font.pixelSize: root.kind === MessageBlocksModel.Heading ? [15, 24, 20, 17, 15, 15, 14][root.level] : 15
            font.bold: root.kind === MessageBlocksModel.Heading
            onLinkActivated: link => Qt.openUrlExternally(link)
            Accessible.role: root.kind === MessageBlocksModel.Heading ? Accessible.Heading : Accessible.StaticText
            Accessible.name: getText(0, length)
        }
    }
}
