import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// Live figures under the conversation: generation and prompt speed, time
// to first token, the context meter (with a notice once the context has
// shifted), process memory, model weights, KV cache and, when layers run
// on a GPU, the model's share of the GPU's memory. The figures wrap
// onto a second line when the window is narrow, so none is cut off.
Rectangle {
    id: root

    required property Gauges gauges

    objectName: "gaugeBar"
    implicitHeight: flow.implicitHeight + 10
    color: Theme.sidebar
    Accessible.role: Accessible.StatusBar
    Accessible.name: qsTr("Performance")

    Flow {
        id: flow

        x: 12
        y: 5
        width: parent.width - 24
        spacing: 18

        GaugeFigure {
            objectName: "tokensPerSecond"
            label: qsTr("Generation")
            value: root.gauges.tokensPerSecondText
        }
        GaugeFigure {
            objectName: "promptSpeed"
            label: qsTr("Prompt")
            value: root.gauges.promptSpeedText
        }
        GaugeFigure {
            objectName: "firstToken"
            label: qsTr("First token")
            value: root.gauges.timeToFirstTokenText
        }
        ColumnLayout {
            objectName: "contextGauge"
            spacing: 2
            width: 170
            Accessible.role: Accessible.Grouping
            Accessible.name: contextLabel.text

            Label {
                id: contextLabel

                text: qsTr("Context %1 / %2").arg(root.gauges.contextUsed).arg(root.gauges.contextSize)
                font.pixelSize: 10
                color: root.gauges.contextShifted ? Theme.warning : Theme.mutedText
            }
            Meter {
                id: contextMeter

                objectName: "contextMeter"
                Layout.fillWidth: true
                value: root.gauges.contextFraction
                fill: root.gauges.contextShifted ? Theme.warning : Theme.accent
                Accessible.name: contextLabel.text

                // The documents' passages: their share, from the start of the bar.
                Rectangle {
                    objectName: "documentShare"
                    visible: root.gauges.documentTokens > 0
                    width: root.gauges.documentFraction * contextMeter.width // at most 1
                    height: contextMeter.height
                    radius: contextMeter.radius
                    color: Theme.warning
                    opacity: 0.8
                }
            }
            Label {
                objectName: "documentShareLabel"
                visible: root.gauges.documentTokens > 0
                text: qsTr("Documents ≈%1 tokens").arg(root.gauges.documentTokens)
                font.pixelSize: 10
                color: Theme.mutedText
            }
            Label {
                objectName: "contextShiftNotice"
                Layout.fillWidth: true
                visible: root.gauges.contextShifted
                text: qsTr("Context full: the oldest messages were dropped")
                wrapMode: Text.Wrap
                font.pixelSize: 10
                color: Theme.warning
            }
        }
        GaugeFigure {
            objectName: "memoryGauge"
            label: qsTr("Memory")
            value: root.gauges.processMemoryText
        }
        GaugeFigure {
            objectName: "weightsGauge"
            label: qsTr("Weights")
            value: root.gauges.weightsText
        }
        GaugeFigure {
            objectName: "kvCacheGauge"
            label: qsTr("KV cache")
            value: root.gauges.kvCacheText
        }
        ColumnLayout {
            objectName: "gpuMemoryGauge"
            visible: root.gauges.onGpu
            spacing: 2
            width: 150
            Accessible.role: Accessible.Grouping
            Accessible.name: qsTr("GPU memory %1").arg(root.gauges.gpuMemoryText)

            GaugeFigure {
                label: qsTr("GPU memory")
                value: root.gauges.gpuMemoryText
            }
            Meter {
                objectName: "gpuMemoryMeter"
                Layout.fillWidth: true
                value: root.gauges.gpuMemoryFraction
                fill: root.gauges.gpuMemoryFraction > 0.9 ? Theme.warning : Theme.accent
                Accessible.name: qsTr("GPU memory %1").arg(root.gauges.gpuMemoryText)
            }
        }
    }
}
