import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// One model file: name, architecture, parameters, quant, trained context,
// size, the fit estimate, or why it cannot be used. A remote model (served
// by an endpoint of Settings → Engines) says so and names its server.
// "Quantize…" asks the picker for its quantize dialog.
Rectangle {
    id: root

    required property string path
    required property string name
    required property string fileName
    required property string architecture
    required property string parametersText
    required property string quant
    required property int trainedContext
    required property string fileSizeText
    required property bool fits
    required property string fitText
    required property string error
    required property bool loaded
    required property bool remote
    required property string endpoint

    signal loadRequested(string path)
    signal quantizeRequested(string path, string name)

    implicitHeight: row.implicitHeight + 20
    radius: Theme.radius
    color: root.loaded ? Theme.highlight : Theme.sidebar
    border.color: Theme.border
    Accessible.role: Accessible.ListItem
    Accessible.name: root.name

    RowLayout {
        id: row

        anchors.fill: parent
        anchors.margins: 10
        spacing: 12

        ColumnLayout {
            Layout.fillWidth: true
            spacing: 2

            Label {
                Layout.fillWidth: true
                text: root.name
                font.bold: true
                elide: Text.ElideRight
            }
            Label {
                Layout.fillWidth: true
                visible: root.error.length === 0 && !root.remote
                text: qsTr("%1 · %2 parameters · %3 · trained context %4 · %5")
                      .arg(root.architecture).arg(root.parametersText).arg(root.quant)
                      .arg(root.trainedContext).arg(root.fileSizeText)
                font.pixelSize: 12
                color: Theme.mutedText
                elide: Text.ElideRight
            }
            Label {
                objectName: "remoteLabel"
                Layout.fillWidth: true
                visible: root.remote
                text: root.trainedContext > 0 ? qsTr("Remote · %1 · context %2").arg(root.endpoint).arg(root.trainedContext)
                                              : qsTr("Remote · %1").arg(root.endpoint)
                font.pixelSize: 12
                color: Theme.accent
                elide: Text.ElideRight
            }
            Label {
                Layout.fillWidth: true
                text: root.error.length > 0 ? root.error
                                            : (root.fits ? qsTr("Fits: %1").arg(root.fitText)
                                                         : qsTr("May not fit: %1").arg(root.fitText))
                visible: text.length > 0 && (root.error.length > 0 || root.fitText.length > 0)
                font.pixelSize: 12
                wrapMode: Text.Wrap
                color: root.error.length > 0 ? Theme.danger : root.fits ? Theme.success : Theme.warning
            }
            Label {
                Layout.fillWidth: true
                text: root.path
                font.pixelSize: 11
                color: Theme.mutedText
                elide: Text.ElideMiddle
            }
        }

        Label {
            visible: root.loaded
            text: qsTr("Loaded")
            color: Theme.success
        }
        Button {
            objectName: "quantizeButton"
            visible: !root.remote && root.error.length === 0
            text: qsTr("Quantize…")
            Accessible.name: qsTr("Quantize %1 to another type").arg(root.name)
            onClicked: root.quantizeRequested(root.path, root.name)
        }
        Button {
            objectName: "loadButton"
            visible: !root.loaded
            enabled: root.error.length === 0
            text: qsTr("Load")
            Accessible.name: qsTr("Load %1").arg(root.name)
            onClicked: root.loadRequested(root.path)
        }
    }
}
