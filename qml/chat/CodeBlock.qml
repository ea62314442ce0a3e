import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// A chunk of a code fence. The chunks of one fence sit flush together: the
// first draws the header (language, copy button), the last the bottom.
Rectangle {
    id: root

    property string html
    property string language
    property bool firstChunk: true
    property bool lastChunk: true
    signal copyRequested()

    implicitHeight: column.implicitHeight
    color: Theme.codeBackground
    radius: Theme.radius
    border.color: Theme.border

    // Square corners where the next or previous chunk continues the box.
    Rectangle {
        visible: !root.firstChunk
        width: parent.width
        height: Theme.radius
        color: root.color
        border.color: root.border.color
        Rectangle {
            x: 1
            y: 0
            width: parent.width - 2
            height: parent.height + 1
            color: root.color
        }
    }
    Rectangle {
        visible: !root.lastChunk
        anchors.bottom: parent.bottom
        width: parent.width
        height: Theme.radius
        color: root.color
        Rectangle {
            x: 0
            width: 1
            height: parent.height
            color: root.border.color
        }
        Rectangle {
            anchors.right: parent.right
            width: 1
            height: parent.height
            color: root.border.color
        }
    }

    FontMetrics {
        id: metrics

        font: codeText.font
    }

    ColumnLayout {
        id: column

        width: parent.width
        spacing: 0

        Rectangle {
            visible: root.firstChunk
            Layout.fillWidth: true
            implicitHeight: header.implicitHeight
            color: Theme.codeHeader
            radius: Theme.radius

            RowLayout {
                id: header

                anchors.fill: parent
                anchors.leftMargin: 12

                Label {
                    Layout.fillWidth: true
                    text: root.language.length > 0 ? root.language : qsTr("code")
                    font.pixelSize: 12
                    color: Theme.mutedText
                }
                ToolButton {
                    objectName: "copyCodeButton"
                    text: codeCopied.running ? qsTr("Copied") : qsTr("Copy code")
                    font.pixelSize: 12
                    Accessible.name: text
                    onClicked: {
                        root.copyRequested()
                        codeCopied.restart()
                    }

                    // "Copied" for a moment: the click did something.
                    Timer {
                        id: codeCopied

                        interval: 1500
                    }
                }
            }
        }

        TextEdit {
            id: codeText

            Layout.fillWidth: true
            Layout.leftMargin: 12
            Layout.rightMargin: 12
            Layout.topMargin: root.firstChunk ? 8 : 0
            Layout.bottomMargin: root.lastChunk ? 10 : 0
            readOnly: true
            selectByMouse: true
            textFormat: TextEdit.RichText
            wrapMode: TextEdit.WrapAnywhere
            text: root.html
            color: Theme.text
            selectionColor: Theme.accent
            selectedTextColor: Theme.accentText
            font.family: Theme.monospaceFamily
            font.pixelSize: 13
            tabStopDistance: 4 * metrics.averageCharacterWidth
            Accessible.role: Accessible.StaticText
            Accessible.name: qsTr("Code")
        }
    }
}
