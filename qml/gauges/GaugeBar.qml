import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// Live figures under the conversation: generation and prompt speed, time
// to first token, the context meter (with a notice once the context has
// shifted), process memory, model weights and KV cache.
Rectangle {
    id: root

    required property Gauges gauges

    objectName: "gaugeBar"
    implicitHeight: row.implicitHeight + 10
    color: Theme.sidebar
    Accessible.role: Accessible.StatusBar
    Accessible.name: qsTr("Performance")

    RowLayout {
        id: row

        anchors.fill: parent
        anchors.leftMargin: 12
        anchors.rightMargin: 12
        spacing: 18

        GaugeFigure {
            objectName: "tokensPerSecond"
            label: qsTr("Generation")
            value: root.gauges.tokensPerSecondText
        }
        GaugeFigure {
            label: qsTr("Prompt")
            value: root.gauges.promptSpeedText
        }
        GaugeFigure {
            label: qsTr("First token")
            value: root.gauges.timeToFirstTokenText
        }
        ColumnLayout {
            spacing: 2
            Layout.preferredWidth: 170
            Accessible.role: Accessible.ProgressBar
            Accessible.name: contextLabel.text

            Label {
                id: contextLabel

                text: qsTr("Context %1 / %2").arg(root.gauges.contextUsed).arg(root.gauges.contextSize)
                font.pixelSize: 10
                color: root.gauges.contextShifted ? Theme.warning : Theme.mutedText
            }
            Meter {
                objectName: "contextMeter"
                Layout.fillWidth: true
                value: root.gauges.contextFraction
                fill: root.gauges.contextShifted ? Theme.warning : Theme.accent
                Accessible.name: contextLabel.text
            }
            Label {
                objectName: "contextShiftNotice"
                visible: root.gauges.contextShifted
                text: qsTr("Context full: the oldest messages were dropped")
                font.pixelSize: 10
                color: Theme.warning
            }
        }
        Item {
            Layout.fillWidth: true
        }
        GaugeFigure {
            label: qsTr("Memory")
            value: root.gauges.processMemoryText
        }
        GaugeFigure {
            label: qsTr("Weights")
            value: root.gauges.weightsText
        }
        GaugeFigure {
            label: qsTr("KV cache")
            value: root.gauges.kvCacheText
        }
    }
}
