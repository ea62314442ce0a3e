import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// Settings → Local server: the OpenAI-compatible API of the loaded model
// (docs/server.md). The switch, the port, "allow other devices" (which
// needs the API key, kept in the OS keychain) and where to point clients.
ColumnLayout {
    id: root

    required property LocalServer server

    spacing: 6

    RowLayout {
        Layout.fillWidth: true

        Label {
            Layout.fillWidth: true
            text: qsTr("Local server")
            font.bold: true
            Accessible.role: Accessible.Heading
            Accessible.name: text
        }
        Switch {
            objectName: "serverSwitch"
            checked: root.server.enabled
            onToggled: root.server.enabled = checked
            Accessible.name: qsTr("Serve the loaded model over an OpenAI-compatible API")
        }
    }

    RowLayout {
        Layout.fillWidth: true

        Label {
            text: qsTr("Port")
        }
        SpinBox {
            objectName: "serverPort"
            from: 1
            to: 65535
            editable: true
            value: root.server.port
            onValueModified: root.server.port = value
            Accessible.name: qsTr("Port")
        }
    }

    CheckBox {
        objectName: "serverAllowOthers"
        text: qsTr("Allow other devices (requires the API key)")
        checked: root.server.allowOtherDevices
        onToggled: root.server.allowOtherDevices = checked
        Accessible.name: text
    }

    Label {
        objectName: "serverStatus"
        Layout.fillWidth: true
        wrapMode: Text.Wrap
        font.pixelSize: 12
        color: root.server.status === LocalServer.Failed ? Theme.danger : Theme.mutedText
        text: {
            switch (root.server.status) {
            case LocalServer.Running:
                return qsTr("Serving at %1").arg(root.server.address)
            case LocalServer.Starting:
                return qsTr("Starting…")
            case LocalServer.Failed:
                return root.server.error
            default:
                return qsTr("Off")
            }
        }
    }

    RowLayout {
        Layout.fillWidth: true
        visible: root.server.allowOtherDevices && root.server.apiKey !== ""

        TextField {
            objectName: "serverKey"
            Layout.fillWidth: true
            readOnly: true
            selectByMouse: true
            text: root.server.apiKey
            Accessible.name: qsTr("API key")
        }
        Button {
            text: qsTr("New key")
            onClicked: root.server.newApiKey()
            Accessible.name: qsTr("Make a new API key")
        }
    }
}
