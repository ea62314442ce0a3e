import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// "Quantize…" on a model of the picker: each type with the estimated file
// size and bits per weight (a type that cannot apply says why), Start, a
// progress bar with Cancel, and the outcome. The new file joins the models
// list. Keyboard: arrows choose a type, Enter starts, Escape cancels a run
// and otherwise closes.
Dialog {
    id: root

    required property ModelLibrary library
    // The model being quantized, as the picker names it.
    property string modelName
    readonly property QuantizeJob quantizeJob: job
    readonly property var selected: typeList.currentIndex >= 0 && typeList.currentIndex < job.types.length
                                    ? job.types[typeList.currentIndex] : ({})
    readonly property bool canStart: !job.busy && root.selected.available === true
                                     && (root.selected.requantize !== true || requantizeBox.checked)

    function ask(path, name) {
        root.modelName = name
        requantizeBox.checked = false
        job.source = ""
        job.source = path
        root.open()
        typeList.forceActiveFocus()
    }

    function start() {
        if (root.canStart)
            job.start(root.selected.name, requantizeBox.checked)
    }

    objectName: "quantizeDialog"
    title: qsTr("Quantize %1").arg(root.modelName)
    modal: true
    focus: true
    closePolicy: job.busy ? Popup.NoAutoClose : Popup.CloseOnEscape
    width: Math.min(560, parent ? parent.width - 40 : 560)
    height: Math.min(620, parent ? parent.height - 40 : 620)
    Component.onCompleted: Accessibility.nameDialog(root, root.title)
    onTitleChanged: Accessibility.nameDialog(root, root.title)

    QuantizeJob {
        id: job

        library: root.library
        onTypesChanged: preselect.restart()
    }

    // After the list has taken the new model (which resets its current index).
    Timer {
        id: preselect

        interval: 0
        onTriggered: typeList.currentIndex = job.recommended
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 8
        // Escape during a run stops it (the dialog stays, to show that it stopped).
        Keys.onEscapePressed: event => {
            if (job.state === QuantizeJob.Running)
                job.cancel()
            else
                root.close()
        }

        Label {
            Layout.fillWidth: true
            wrapMode: Text.Wrap
            text: qsTr("Writes a new model file next to this one; the original stays as it is.")
        }
        Label {
            objectName: "requantizeNote"
            Layout.fillWidth: true
            visible: job.sourceQuantized
            wrapMode: Text.Wrap
            color: Theme.warning
            text: qsTr("This file is already quantized. Quantizing it again loses more quality than quantizing the original F16 or BF16 model would.")
        }

        BusyIndicator {
            Layout.alignment: Qt.AlignHCenter
            visible: job.state === QuantizeJob.Estimating
            running: visible
            Accessible.name: qsTr("Estimating the sizes")
        }

        ListView {
            id: typeList

            objectName: "quantizeTypes"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: job.types
            activeFocusOnTab: true
            keyNavigationEnabled: true
            highlightMoveDuration: 0
            enabled: job.state !== QuantizeJob.Running
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Quantization types")
            ScrollBar.vertical: ScrollBar {}
            Keys.onReturnPressed: root.start()
            Keys.onEnterPressed: root.start()

            delegate: ItemDelegate {
                id: typeRow

                required property var modelData
                required property int index

                objectName: "quantizeType:" + typeRow.modelData.name
                width: ListView.view.width
                enabled: typeRow.modelData.available
                highlighted: ListView.isCurrentItem
                focusPolicy: Qt.NoFocus
                Accessible.name: typeRow.modelData.sizeText !== undefined
                                 ? qsTr("%1, about %2, %3 bits per weight").arg(typeRow.modelData.name)
                                   .arg(typeRow.modelData.sizeText).arg(typeRow.modelData.bpwText)
                                 : typeRow.modelData.name
                onClicked: typeRow.ListView.view.currentIndex = typeRow.index

                contentItem: ColumnLayout {
                    spacing: 0

                    RowLayout {
                        Label {
                            Layout.preferredWidth: 80
                            text: typeRow.modelData.name
                            font.bold: true
                        }
                        Label {
                            objectName: "typeSize"
                            Layout.fillWidth: true
                            visible: typeRow.modelData.sizeText !== undefined
                            text: qsTr("about %1 · %2 bits per weight").arg(typeRow.modelData.sizeText)
                                  .arg(typeRow.modelData.bpwText)
                        }
                    }
                    Label {
                        Layout.fillWidth: true
                        visible: text.length > 0
                        text: typeRow.modelData.reason
                        wrapMode: Text.Wrap
                        font.pixelSize: 12
                        color: typeRow.modelData.available ? Theme.warning : Theme.mutedText
                    }
                }
            }
        }

        CheckBox {
            id: requantizeBox

            objectName: "requantizeBox"
            visible: root.selected.requantize === true
            enabled: !job.busy
            text: qsTr("Requantize anyway")
            Accessible.name: qsTr("Requantize anyway, with lower quality")
        }
        Label {
            objectName: "outputName"
            Layout.fillWidth: true
            visible: text.length > 0
            elide: Text.ElideMiddle
            font.pixelSize: 12
            color: Theme.mutedText
            // job.state: a finished run has taken the name, so ask again; a
            // running one shows its own type below.
            text: root.selected.available === true && job.state !== QuantizeJob.Done && job.state !== QuantizeJob.Running
                  ? qsTr("Will write %1").arg(job.outputPathFor(root.selected.name) || "…") : ""
        }

        ProgressBar {
            objectName: "quantizeProgress"
            Layout.fillWidth: true
            visible: job.state === QuantizeJob.Running
            from: 0
            to: 1
            value: job.progress
            Accessible.name: qsTr("Quantizing")
        }
        Label {
            objectName: "quantizeProgressText"
            Layout.fillWidth: true
            visible: job.state === QuantizeJob.Running
            text: qsTr("%1: %2").arg(job.runningType).arg(job.progressText)
        }
        Label {
            objectName: "quantizeMessage"
            Layout.fillWidth: true
            visible: text.length > 0
            wrapMode: Text.Wrap
            text: job.error.length > 0 ? job.error : job.message
            color: job.error.length > 0 ? Theme.danger : job.state === QuantizeJob.Done ? Theme.success
                                                                                          : Theme.mutedText
        }

        RowLayout {
            Layout.alignment: Qt.AlignRight

            Button {
                objectName: "quantizeStartButton"
                visible: job.state !== QuantizeJob.Running
                enabled: root.canStart
                highlighted: true
                text: qsTr("Start")
                Accessible.name: qsTr("Quantize to %1").arg(root.selected.name || "")
                onClicked: root.start()
            }
            Button {
                objectName: "quantizeCancelButton"
                visible: job.state === QuantizeJob.Running
                text: qsTr("Cancel")
                Accessible.name: qsTr("Stop quantizing")
                onClicked: job.cancel()
            }
            Button {
                objectName: "quantizeLoadButton"
                visible: job.state === QuantizeJob.Done
                text: qsTr("Load")
                Accessible.name: qsTr("Load the quantized model")
                onClicked: {
                    root.library.load(job.resultPath)
                    root.close()
                }
            }
            Button {
                objectName: "quantizeCloseButton"
                enabled: job.state !== QuantizeJob.Running
                text: qsTr("Close")
                onClicked: root.close()
            }
        }
    }
}
