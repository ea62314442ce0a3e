import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Hearth

// Settings → Engines: the OpenAI-compatible servers Hearth can chat
// through. Add, edit or remove one (name, base URL, API key kept in the
// system keychain, optional headers, a certificate to trust); "Test
// connection" lists the server's models. Their models appear in the picker,
// marked as remote.
Dialog {
    id: root

    required property EndpointListModel endpoints
    property string editingId: ""
    property string message: ""
    property bool messageOk: false

    objectName: "enginesDialog"
    title: qsTr("Engines")
    modal: true
    standardButtons: Dialog.Close
    width: Math.min(640, parent ? parent.width - 40 : 640)
    height: Math.min(720, parent ? parent.height - 40 : 720)
    anchors.centerIn: parent

    // One saved endpoint: name, URL, the last listing's outcome.
    component EndpointRow: RowLayout {
        id: endpointRow

        required property int index
        required property string endpointId
        required property string name
        required property string baseUrl
        required property string status
        required property bool statusOk

        signal editRequested(int row)
        signal removeRequested(string id)

        ColumnLayout {
            Layout.fillWidth: true
            spacing: 0
            Label {
                text: endpointRow.name + " · " + endpointRow.baseUrl
                font.bold: true
                elide: Text.ElideRight
                Layout.fillWidth: true
            }
            Label {
                text: endpointRow.status
                visible: text.length > 0
                color: endpointRow.statusOk ? Theme.mutedText : Theme.danger
                font.pixelSize: 12
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
        }
        Button {
            objectName: "editEndpoint" + endpointRow.index
            text: qsTr("Edit")
            Accessible.name: qsTr("Edit %1").arg(endpointRow.name)
            onClicked: endpointRow.editRequested(endpointRow.index)
        }
        Button {
            objectName: "removeEndpoint" + endpointRow.index
            text: qsTr("Remove")
            Accessible.name: qsTr("Remove %1").arg(endpointRow.name)
            onClicked: endpointRow.removeRequested(endpointRow.endpointId)
        }
    }

    function edit(row) {
        root.fill(root.endpoints.get(row))
    }

    // `e`: one row of the model as a map (EndpointListModel.get).
    function fill(e) {
        root.editingId = e.endpointId
        nameField.text = e.name
        urlField.text = e.baseUrl
        keyField.text = ""
        clearKeyBox.checked = false
        headersArea.text = e.headers
        certificateField.text = ""
        clearCertificateBox.checked = false
        timeoutBox.value = e.timeoutSeconds
        extendedBox.checked = e.extendedSampling
        root.message = ""
    }

    function startNew() {
        root.editingId = ""
        for (const field of [nameField, urlField, keyField, headersArea, certificateField])
            field.text = ""
        clearKeyBox.checked = false
        clearCertificateBox.checked = false
        timeoutBox.value = 120
        extendedBox.checked = true
        root.message = ""
    }

    function fields() {
        return {
            id: root.editingId, name: nameField.text, baseUrl: urlField.text, apiKey: keyField.text,
            clearKey: clearKeyBox.checked, headers: headersArea.text, certificateFile: certificateField.text,
            clearCertificate: clearCertificateBox.checked, timeoutSeconds: timeoutBox.value,
            extendedSampling: extendedBox.checked
        }
    }

    function save() {
        const error = root.endpoints.save(root.fields())
        root.messageOk = error.length === 0
        root.message = error.length === 0 ? qsTr("Saved.") : error
        if (error.length === 0)
            root.startNew()
    }

    readonly property var editing: root.editingId.length > 0
                                   ? root.endpoints.get(root.endpoints.rowOf(root.editingId)) : ({})

    Connections {
        target: root.endpoints
        function onTestFinished(ok, message, models) {
            root.messageOk = ok
            root.message = ok && models.length > 0 ? message + "\n" + models.join(", ") : message
        }
        function onSaved(id, error) {
            if (error.length > 0) {
                root.messageOk = false
                root.message = error
            }
        }
    }

    ScrollView {
        anchors.fill: parent
        contentWidth: availableWidth

        ColumnLayout {
            width: parent.width
            spacing: 8

            Repeater {
                objectName: "endpointRepeater"
                model: root.endpoints
                delegate: EndpointRow {
                    Layout.fillWidth: true
                    onEditRequested: row => root.edit(row)
                    onRemoveRequested: id => root.endpoints.remove(id)
                }
            }

            Label {
                text: root.editingId.length > 0 ? qsTr("Edit the endpoint") : qsTr("Add an endpoint")
                font.bold: true
                Layout.topMargin: 8
            }
            GridLayout {
                columns: 2
                Layout.fillWidth: true

                Label { text: qsTr("Name") }
                TextField {
                    id: nameField
                    objectName: "endpointName"
                    Layout.fillWidth: true
                    placeholderText: qsTr("GPU box")
                    Accessible.name: qsTr("Name")
                }
                Label { text: qsTr("Base URL") }
                TextField {
                    id: urlField
                    objectName: "endpointUrl"
                    Layout.fillWidth: true
                    placeholderText: "http://gpu-box:8000/v1"
                    inputMethodHints: Qt.ImhUrlCharactersOnly
                    Accessible.name: qsTr("Base URL")
                }
                Label { text: qsTr("API key") }
                TextField {
                    id: keyField
                    objectName: "endpointKey"
                    Layout.fillWidth: true
                    echoMode: TextInput.Password
                    placeholderText: root.editing.hasKey ? qsTr("kept in the keychain; type to replace")
                                                         : qsTr("none")
                    Accessible.name: qsTr("API key")
                }
                Item { width: 1; visible: clearKeyBox.visible }
                CheckBox {
                    id: clearKeyBox
                    visible: root.editing.hasKey === true
                    text: qsTr("Remove the stored key")
                }
                Label { text: qsTr("Headers") }
                TextArea {
                    id: headersArea
                    objectName: "endpointHeaders"
                    Layout.fillWidth: true
                    placeholderText: qsTr("Optional, one per line: Name: value")
                    Accessible.name: qsTr("Extra headers")
                }
                Label { text: qsTr("Certificate") }
                RowLayout {
                    Layout.fillWidth: true
                    TextField {
                        id: certificateField
                        objectName: "endpointCertificate"
                        Layout.fillWidth: true
                        placeholderText: root.editing.hasCertificate ? qsTr("a certificate is trusted")
                                                                     : qsTr("optional: a PEM file to trust")
                        Accessible.name: qsTr("Certificate file")
                    }
                    Button {
                        text: qsTr("Choose…")
                        onClicked: certificateDialog.open()
                    }
                }
                Item { width: 1; visible: clearCertificateBox.visible }
                CheckBox {
                    id: clearCertificateBox
                    visible: root.editing.hasCertificate === true
                    text: qsTr("Stop trusting the added certificate")
                }
                Label { text: qsTr("Timeout (s)") }
                SpinBox {
                    id: timeoutBox
                    from: 1
                    to: 3600
                    value: 120
                    editable: true
                    Accessible.name: qsTr("Seconds without data before giving up")
                }
                Item { width: 1 }
                CheckBox {
                    id: extendedBox
                    checked: true
                    text: qsTr("Send top-k, min-p and repeat penalty (llama.cpp, vLLM, LocalAI)")
                }
            }

            Label {
                objectName: "endpointMessage"
                Layout.fillWidth: true
                visible: root.message.length > 0
                text: root.message
                wrapMode: Text.Wrap
                color: root.messageOk ? Theme.success : Theme.danger
            }

            RowLayout {
                Button {
                    objectName: "testEndpoint"
                    text: root.endpoints && root.endpoints.testing ? qsTr("Testing…") : qsTr("Test connection")
                    enabled: root.endpoints !== null && !root.endpoints.testing && urlField.text.length > 0
                    onClicked: root.endpoints.testConnection(root.fields())
                }
                Button {
                    objectName: "saveEndpoint"
                    text: root.editingId.length > 0 ? qsTr("Save") : qsTr("Add")
                    enabled: urlField.text.length > 0
                    onClicked: root.save()
                }
                Button {
                    visible: root.editingId.length > 0
                    text: qsTr("New")
                    onClicked: root.startNew()
                }
            }
            Label {
                Layout.fillWidth: true
                wrapMode: Text.Wrap
                font.pixelSize: 12
                color: Theme.mutedText
                text: qsTr("The conversation is sent to the server you add here. TLS certificates are always checked.")
            }
        }
    }

    FileDialog {
        id: certificateDialog

        title: qsTr("A certificate to trust")
        nameFilters: [qsTr("Certificates (*.pem *.crt)"), qsTr("All files (*)")]
        onAccepted: certificateField.text = selectedFile
    }
}
