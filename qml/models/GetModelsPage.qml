import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// "Get models": search Hugging Face for GGUF repositories, see a
// repository's quant files with size and fit (the recommended one marked and
// its header checked before any weights move), download, and follow the
// downloads. Gated repositories ask for a token here.
Popup {
    id: root

    required property HubBrowser browser
    // Shown when no model is there yet (first launch).
    property bool firstLaunch: false

    signal openFileRequested()

    function formatBytes(b) {
        return b >= 1e9 ? qsTr("%1 GB").arg((b / 1e9).toFixed(2)) : qsTr("%1 MB").arg((b / 1e6).toFixed(1))
    }

    objectName: "getModelsPage"
    modal: true
    focus: true
    padding: 16
    background: Rectangle {
        color: Theme.surface
        radius: Theme.radius
        border.color: Theme.border
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 10

        RowLayout {
            Layout.fillWidth: true

            Label {
                Layout.fillWidth: true
                text: qsTr("Get models")
                font.pixelSize: 20
                font.bold: true
                Accessible.role: Accessible.Heading
                Accessible.name: text
            }
            BusyIndicator {
                visible: root.browser.busy
                running: root.browser.busy
                implicitWidth: 24
                implicitHeight: 24
                Accessible.name: qsTr("Asking Hugging Face")
            }
            ToolButton {
                text: "✕"
                Accessible.name: qsTr("Close")
                onClicked: root.close()
            }
        }

        Label {
            objectName: "firstLaunchOffer"
            Layout.fillWidth: true
            visible: root.firstLaunch
            wrapMode: Text.Wrap
            text: qsTr("There is no model yet. Download one from Hugging Face below, drop a .gguf file on the window, or open one.")
        }
        Button {
            objectName: "offerOpenButton"
            visible: root.firstLaunch
            text: qsTr("Open file…")
            onClicked: root.openFileRequested()
        }

        RowLayout {
            Layout.fillWidth: true

            TextField {
                id: query

                objectName: "searchField"
                Layout.fillWidth: true
                placeholderText: qsTr("Search GGUF models (e.g. smollm2, qwen, gemma)")
                Accessible.name: qsTr("Search models")
                onAccepted: root.browser.search(query.text, sort.currentValue)
            }
            ComboBox {
                id: sort

                textRole: "text"
                valueRole: "value"
                model: [{ text: qsTr("Most downloaded"), value: "downloads" },
                        { text: qsTr("Most liked"), value: "likes" },
                        { text: qsTr("Recently updated"), value: "updated" }]
                Accessible.name: qsTr("Order")
                Component.onCompleted: Accessibility.nameItem(contentItem, Accessible.name)
                onActivated: root.browser.search(query.text, sort.currentValue)
            }
            Button {
                objectName: "searchButton"
                text: qsTr("Search")
                onClicked: root.browser.search(query.text, sort.currentValue)
            }
        }

        Banner {
            Layout.fillWidth: true
            text: root.browser.error
            onDismissed: root.browser.clearError()
        }

        RowLayout {
            objectName: "tokenRow"
            Layout.fillWidth: true
            visible: root.browser.needsToken

            TextField {
                id: token

                objectName: "tokenField"
                Layout.fillWidth: true
                echoMode: TextInput.Password
                placeholderText: qsTr("Hugging Face access token (hf_…)")
                Accessible.name: qsTr("Access token")
            }
            Button {
                text: qsTr("Use token")
                onClicked: root.browser.setToken(token.text)
            }
        }

        RowLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: 10

            ListView {
                id: results

                objectName: "resultList"
                Layout.preferredWidth: 360
                Layout.fillHeight: true
                clip: true
                spacing: 4
                model: root.browser.results
                ScrollBar.vertical: ScrollBar {}
                Accessible.name: qsTr("Repositories")
                Accessible.role: Accessible.List

                delegate: ItemDelegate {
                    id: hit

                    required property var modelData
                    required property int index

                    width: ListView.view.width
                    highlighted: hit.ListView.isCurrentItem
                    text: hit.modelData.repoId
                    Accessible.name: hit.modelData.repoId
                    contentItem: ColumnLayout {
                        spacing: 0

                        Label {
                            Layout.fillWidth: true
                            text: hit.modelData.repoId
                            font.bold: true
                            elide: Text.ElideRight
                        }
                        Label {
                            Layout.fillWidth: true
                            text: qsTr("%1 downloads · %2 likes · updated %3")
                                  .arg(hit.modelData.downloads).arg(hit.modelData.likes)
                                  .arg(hit.modelData.updated)
                            font.pixelSize: 12
                            color: Theme.mutedText
                        }
                    }
                    onClicked: () => {
                        hit.ListView.view.currentIndex = hit.index
                        root.browser.openRepo(hit.modelData.repoId)
                    }
                }
            }

            ColumnLayout {
                Layout.fillWidth: true
                Layout.fillHeight: true

                Label {
                    id: facts

                    objectName: "headerFacts"
                    // The map as a plain JS object (its keys are not declared to qmllint).
                    readonly property var h: root.browser.header
                    Layout.fillWidth: true
                    wrapMode: Text.Wrap
                    visible: root.browser.headerIndex >= 0
                    text: root.browser.headerError.length > 0
                          ? root.browser.headerError
                          : qsTr("%1 · %2 · %3 M parameters · trained context %4 · %5 · %6")
                            .arg(facts.h.architecture).arg(facts.h.quant)
                            .arg(((facts.h.parameters || 0) / 1e6).toFixed(1))
                            .arg(facts.h.trainedContext)
                            .arg(facts.h.chatTemplate ? qsTr("chat template") : qsTr("no chat template"))
                            .arg((facts.h.fits ? qsTr("fits: %1") : qsTr("may not fit: %1")).arg(facts.h.fitText || ""))
                    color: Theme.mutedText
                }

                ListView {
                    id: fileList

                    objectName: "fileList"
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    clip: true
                    spacing: 4
                    model: root.browser.files
                    ScrollBar.vertical: ScrollBar {}
                    Accessible.name: qsTr("Files")
                    Accessible.role: Accessible.List

                    delegate: RowLayout {
                        id: file

                        required property var modelData
                        required property int index
                        readonly property string name: file.modelData.name
                        readonly property bool recommended: file.modelData.recommended

                        width: ListView.view.width

                        Label {
                            Layout.fillWidth: true
                            text: file.modelData.name + (file.recommended ? "  ★ " + qsTr("recommended") : "")
                            font.bold: file.recommended
                            elide: Text.ElideMiddle
                            MouseArea {
                                anchors.fill: parent
                                onClicked: () => root.browser.checkFile(file.index)
                            }
                        }
                        Label {
                            text: file.modelData.sizeText + (file.modelData.fits ? "" : " · " + qsTr("too large"))
                            color: file.modelData.fits ? Theme.mutedText : Theme.danger
                        }
                        Button {
                            objectName: "downloadButton"
                            text: qsTr("Download")
                            Accessible.name: qsTr("Download %1").arg(file.modelData.name)
                            onClicked: () => root.browser.download(file.index)
                        }
                    }
                }
            }
        }

        Label {
            text: qsTr("Downloads")
            font.bold: true
            visible: downloadList.count > 0
        }
        ListView {
            id: downloadList

            objectName: "downloadList"
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, 160)
            clip: true
            spacing: 4
            model: root.browser.downloads
            Accessible.name: qsTr("Downloads")
            Accessible.role: Accessible.List

            delegate: RowLayout {
                id: dl

                required property string downloadId
                required property string name
                required property string state
                required property real progress
                required property real speed
                required property real eta
                required property string error

                width: ListView.view.width

                Label {
                    Layout.preferredWidth: 220
                    text: dl.name
                    elide: Text.ElideMiddle
                }
                ProgressBar {
                    Layout.fillWidth: true
                    value: dl.progress
                    Accessible.name: qsTr("%1 downloaded").arg(Math.round(dl.progress * 100) + "%")
                }
                Label {
                    Layout.preferredWidth: 220
                    elide: Text.ElideRight
                    color: dl.state === "failed" ? Theme.danger : Theme.mutedText
                    text: dl.state === "failed" ? dl.error
                          : dl.state === "downloading"
                            ? qsTr("%1% · %2/s · %3 s left").arg(Math.round(dl.progress * 100))
                              .arg(dl.speed >= 1e9 ? qsTr("%1 GB").arg((dl.speed / 1e9).toFixed(2))
                                                   : qsTr("%1 MB").arg((dl.speed / 1e6).toFixed(1)))
                              .arg(dl.eta >= 0 ? dl.eta : "?")
                            : dl.state
                    ToolTip.visible: dl.state === "failed" && hover.hovered
                    ToolTip.text: dl.error
                    HoverHandler {
                        id: hover
                    }
                }
                Button {
                    visible: dl.state === "downloading" || dl.state === "queued" || dl.state === "preparing"
                    text: qsTr("Pause")
                    onClicked: () => root.browser.downloads.pause(dl.downloadId)
                }
                Button {
                    visible: dl.state === "paused" || dl.state === "failed"
                    text: qsTr("Resume")
                    onClicked: () => root.browser.downloads.resume(dl.downloadId)
                }
                Button {
                    visible: dl.state !== "done"
                    text: qsTr("Cancel")
                    onClicked: () => root.browser.downloads.cancel(dl.downloadId)
                }
            }
        }
    }
}
