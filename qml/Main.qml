import QtQuick
import QtQuick.Controls
import Hearth

ApplicationWindow {
    id: window

    required property AppSession session

    width: 1180
    height: 760
    minimumWidth: 720
    minimumHeight: 480
    visible: true
    title: window.session.loader.loaded
           ? qsTr("%1 — %2").arg(window.session.loader.modelName).arg(AppInfo.name)
           : AppInfo.name
    color: Theme.window

    palette.window: Theme.window
    palette.windowText: Theme.text
    palette.base: Theme.surface
    palette.alternateBase: Theme.sidebar
    palette.text: Theme.text
    palette.button: Theme.sidebar
    palette.buttonText: Theme.text
    palette.highlight: Theme.accent
    palette.highlightedText: Theme.accentText
    palette.placeholderText: Theme.mutedText
    palette.mid: Theme.border
    palette.dark: Theme.border
    palette.light: Theme.surface
    palette.toolTipBase: Theme.sidebar
    palette.toolTipText: Theme.text
    // Disabled controls look disabled (the groups above set every group).
    palette.disabled.buttonText: Theme.mutedText
    palette.disabled.windowText: Theme.mutedText
    palette.disabled.text: Theme.mutedText
    palette.disabled.button: Theme.userBubble
    palette.disabled.highlight: Theme.border
    palette.disabled.highlightedText: Theme.mutedText

    // The conversations sidebar; Ctrl+B or the header's ☰ hides and shows it.
    property bool sidebarShown: true

    // The rendered Markdown (C++) uses the same palette as the views.
    Binding {
        target: window.session
        property: "darkTheme"
        value: Theme.dark
    }

    Shortcut {
        sequence: "Ctrl+N"
        onActivated: {
            window.session.chat.newConversation()
            chatView.focusInput()
        }
    }
    Shortcut {
        sequences: ["Ctrl+F", "Ctrl+K"]
        onActivated: sidebar.focusSearch()
    }
    Shortcut {
        sequence: "Ctrl+B"
        onActivated: window.sidebarShown = !window.sidebarShown
    }
    Shortcut {
        sequence: "Ctrl+L"
        onActivated: chatView.focusInput()
    }
    Shortcut {
        sequence: "Esc"
        enabled: window.session.chat.generating
        onActivated: window.session.chat.stop()
    }
    Shortcut {
        sequence: "Ctrl+O"
        onActivated: modelPicker.openFile()
    }
    Shortcut {
        sequence: "Ctrl+M"
        onActivated: modelPicker.open()
    }
    Shortcut {
        sequence: "Ctrl+D"
        onActivated: documentsPanel.visible ? documentsPanel.close() : documentsPanel.open()
    }
    Shortcut {
        sequence: "F1"
        onActivated: aboutDialog.open()
    }
    Shortcut {
        sequence: "Ctrl+,"
        onActivated: settingsPanel.visible ? settingsPanel.close() : settingsPanel.open()
    }

    SplitView {
        anchors.fill: parent

        Sidebar {
            id: sidebar

            session: window.session
            visible: window.sidebarShown
            SplitView.preferredWidth: window.width < 900 ? 220 : 270
            SplitView.minimumWidth: 180
            SplitView.maximumWidth: 420
            onAboutRequested: aboutDialog.open()
        }

        ChatView {
            id: chatView

            session: window.session
            sidebarShown: window.sidebarShown
            SplitView.fillWidth: true
            onModelPickerRequested: modelPicker.open()
            onSettingsRequested: settingsPanel.open()
            onSidebarToggleRequested: window.sidebarShown = !window.sidebarShown
            onDocumentsRequested: documentsPanel.open()
            onSourceOpened: source => documentViewer.show(source)
        }
    }

    DocumentsPanel {
        id: documentsPanel

        documents: window.session.documents
        anchors.centerIn: parent
        width: Math.min(760, window.width - 80)
        height: Math.min(600, window.height - 80)
    }

    DocumentViewer {
        id: documentViewer

        documents: window.session.documents
        anchors.centerIn: parent
        width: window.width - 60
        height: window.height - 40
    }

    ModelPicker {
        id: modelPicker

        library: window.session.library
        loader: window.session.loader
        anchors.centerIn: parent
        width: Math.min(760, window.width - 80)
        height: Math.min(600, window.height - 80)
        onGetModelsRequested: getModels.open()
    }

    HubBrowser {
        id: hubBrowser

        gpuLayers: window.session.library.gpuLayers
    }

    GetModelsPage {
        id: getModels

        browser: hubBrowser
        anchors.centerIn: parent
        width: Math.min(980, window.width - 60)
        height: Math.min(680, window.height - 60)
        onOpenFileRequested: {
            getModels.close()
            modelPicker.openFile()
        }
    }

    // First launch with no model: offer the download page, drop, or Open.
    Connections {
        property bool offered: false

        target: window.session.library
        function onScanningChanged() {
            if (!offered && !window.session.library.scanning && window.session.library.models.count === 0) {
                offered = true
                getModels.firstLaunch = true
                getModels.open()
            }
        }
    }
    Connections {
        target: hubBrowser.downloads
        // A downloaded model is listed; with none loaded yet (first launch)
        // it is loaded, and the page makes way for the chat.
        function onModelArrived(path) {
            getModels.firstLaunch = false
            window.session.library.rescan()
            if (!window.session.loader.loaded && !window.session.loader.busy) {
                window.session.library.openPath(path)
                getModels.close()
            }
        }
    }

    SettingsPanel {
        id: settingsPanel

        settings: window.session.settings
        loader: window.session.loader
        endpoints: window.session.endpoints
        server: window.session.localServer
        width: Math.min(420, window.width * 0.45)
        height: window.height
    }

    AboutDialog {
        id: aboutDialog

        anchors.centerIn: parent
        width: Math.min(440, window.width - 80)
    }

    DropOverlay {
        anchors.fill: parent
        library: window.session.library
    }

    // The keyboard focus, shown once the keyboard moves it (see FocusTracker),
    // above everything including popups; focused items scroll into view.
    FocusTracker {
        id: focusTracker

        window: window
    }
    Rectangle {
        objectName: "focusRing"
        parent: Overlay.overlay
        z: 1000000
        visible: focusTracker.active && focusTracker.rect.width > 0
        x: focusTracker.rect.x - 3
        y: focusTracker.rect.y - 3
        width: focusTracker.rect.width + 6
        height: focusTracker.rect.height + 6
        radius: Theme.radius
        color: "transparent"
        border.width: 2
        border.color: Theme.focusRing
    }
}
