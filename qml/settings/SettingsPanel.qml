import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// Generation settings: the global defaults, or the loaded model's own
// values (overrides, each resettable to the default). Also the appearance,
// and the remote engines (EnginesDialog) when `endpoints` is set.
Drawer {
    id: root

    required property SettingsModel settings
    required property ModelLoader loader
    property EndpointListModel endpoints: null
    // The app's local server; null hides its section (tests of the panel).
    property LocalServer server: null

    objectName: "settingsPanel"
    edge: Qt.RightEdge
    Component.onCompleted: Accessibility.nameDialog(root, qsTr("Settings"))
    background: Rectangle {
        color: Theme.surface
        Rectangle {
            width: 1
            height: parent.height
            color: Theme.border
        }
    }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: 14
        spacing: 10

        RowLayout {
            Layout.fillWidth: true

            Label {
                Layout.fillWidth: true
                text: qsTr("Settings")
                font.pixelSize: 20
                font.bold: true
                Accessible.role: Accessible.Heading
                Accessible.name: text
            }
            ToolButton {
                objectName: "closeSettingsButton"
                text: "✕"
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Close the settings (Esc)")
                Accessible.name: qsTr("Close")
                onClicked: root.close()
            }
        }

        TabBar {
            id: scopeBar

            objectName: "scopeBar"
            Layout.fillWidth: true
            Accessible.name: qsTr("Which settings")
            currentIndex: root.settings.scope === SettingsModel.Model ? 1 : 0
            onCurrentIndexChanged: root.settings.scope = currentIndex === 1 ? SettingsModel.Model
                                                                            : SettingsModel.Global

            TabButton {
                objectName: "globalScopeButton"
                text: qsTr("Defaults")
                Accessible.name: qsTr("Defaults for every model")
            }
            TabButton {
                objectName: "modelScopeButton"
                enabled: root.settings.hasModel
                text: root.settings.hasModel ? qsTr("This model") : qsTr("This model (none loaded)")
                Accessible.name: qsTr("Settings of the loaded model")
            }
        }

        Label {
            Layout.fillWidth: true
            wrapMode: Text.Wrap
            font.pixelSize: 12
            color: Theme.mutedText
            text: root.settings.scope === SettingsModel.Model
                  ? qsTr("Values set here apply to %1 only; the others follow the defaults.").arg(root.settings.modelName)
                  : qsTr("Defaults apply to every model without its own value.")
        }

        ListView {
            id: list

            objectName: "settingsList"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            spacing: 12
            model: root.settings
            // Every row exists, so Tab reaches them all (and what follows).
            cacheBuffer: 100000
            ScrollBar.vertical: ScrollBar {
                Accessible.name: qsTr("Scroll the settings")
            }
            Accessible.name: qsTr("Settings")
            Accessible.role: Accessible.List
            delegate: SettingRow {
                width: ListView.view.width - 12
                onValueEdited: (row, value) => root.settings.setValue(row, value)
                onResetRequested: row => root.settings.resetValue(row)
            }
        }

        Button {
            objectName: "reloadButton"
            Layout.fillWidth: true
            visible: root.loader.loaded
            text: qsTr("Reload the model to apply context size and threads")
            Accessible.name: text
            onClicked: root.loader.reload()
        }

        Button {
            objectName: "enginesButton"
            Layout.fillWidth: true
            visible: root.endpoints !== null
            text: qsTr("Engines: remote servers…")
            Accessible.name: qsTr("Remote engines")
            onClicked: enginesDialog.open()
        }

        // Loaded with its server as an initial property: the section
        // requires one, and panel tests run without a server.
        Loader {
            Layout.fillWidth: true
            visible: status === Loader.Ready
            Component.onCompleted: {
                if (root.server !== null)
                    setSource(Qt.resolvedUrl("LocalServerSection.qml"), {
                                  "server": root.server
                              })
            }
        }

        RowLayout {
            Layout.fillWidth: true

            Label {
                text: qsTr("Appearance")
            }
            ComboBox {
                objectName: "themeBox"
                Layout.fillWidth: true
                model: [qsTr("Follow the system"), qsTr("Light"), qsTr("Dark")]
                currentIndex: Theme.mode
                onActivated: index => Theme.mode = index
                Accessible.name: qsTr("Appearance")
                Component.onCompleted: Accessibility.nameItem(contentItem, Accessible.name)
            }
        }
    }

    EnginesDialog {
        id: enginesDialog

        parent: Overlay.overlay
        endpoints: root.endpoints
    }
}
