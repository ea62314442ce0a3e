import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// One setting: its name and help, the control for its type (slider for
// reals, spin box for integers, text area for text), a reset button, and
// the reason when it cannot apply (GPU layers without a GPU backend).
ColumnLayout {
    id: root

    required property int index
    required property string key
    required property string label
    required property string help
    required property int valueType
    required property var value
    required property double minimum
    required property double maximum
    required property double step
    required property int decimals
    required property bool overridden
    required property bool resettable
    required property bool available
    required property string unavailableReason

    signal valueEdited(int row, var value)
    signal resetRequested(int row)

    objectName: "setting_" + root.key
    spacing: 2

    RowLayout {
        Layout.fillWidth: true

        Label {
            Layout.fillWidth: true
            text: root.label
            font.bold: root.overridden
            opacity: root.available ? 1 : 0.5
        }
        Label {
            visible: root.overridden
            text: qsTr("this model")
            font.pixelSize: 11
            color: Theme.accent
        }
        ToolButton {
            objectName: "resetButton"
            visible: root.resettable
            text: qsTr("Reset")
            font.pixelSize: 11
            Accessible.name: qsTr("Reset %1").arg(root.label)
            onClicked: root.resetRequested(root.index)
        }
    }

    RowLayout {
        Layout.fillWidth: true
        visible: root.valueType === SettingsModel.Real

        Slider {
            objectName: "slider"
            Layout.fillWidth: true
            from: root.minimum
            to: root.maximum
            stepSize: root.step
            value: root.valueType === SettingsModel.Real ? Number(root.value) : 0
            enabled: root.available
            Accessible.name: root.label
            // Screen readers read the range from these names (Slider has from/to).
            readonly property real minimumValue: from
            readonly property real maximumValue: to
            onMoved: root.valueEdited(root.index, value)
        }
        Label {
            Layout.preferredWidth: 44
            horizontalAlignment: Text.AlignRight
            text: Number(root.value).toFixed(root.decimals)
            font.family: Theme.monospaceFamily
        }
    }

    SpinBox {
        objectName: "spinBox"
        Layout.fillWidth: true
        visible: root.valueType === SettingsModel.Integer
        editable: true
        from: root.minimum
        to: root.maximum
        stepSize: root.step
        value: root.valueType === SettingsModel.Integer ? Number(root.value) : 0
        enabled: root.available
        Accessible.name: root.label
        onValueModified: root.valueEdited(root.index, value)
    }

    PlainTextArea {
        objectName: "textArea"
        Layout.fillWidth: true
        Layout.preferredHeight: Math.max(70, implicitHeight)
        visible: root.valueType === SettingsModel.Text
        text: root.valueType === SettingsModel.Text ? String(root.value) : ""
        Accessible.name: root.label
        onEditingFinished: if (text !== String(root.value)) root.valueEdited(root.index, text)
    }

    Label {
        Layout.fillWidth: true
        wrapMode: Text.Wrap
        font.pixelSize: 11
        color: root.available ? Theme.mutedText : Theme.warning
        text: root.available ? root.help : root.unavailableReason
    }
}
