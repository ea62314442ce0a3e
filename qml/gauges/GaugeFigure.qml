import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Hearth

// A labelled figure of the gauge strip.
ColumnLayout {
    id: root

    property string label
    property string value

    spacing: 0
    Accessible.role: Accessible.StaticText
    Accessible.name: root.label + ": " + root.value

    Label {
        text: root.label
        font.pixelSize: 10
        color: Theme.mutedText
    }
    Label {
        text: root.value
        font.pixelSize: 12
        font.family: Theme.monospaceFamily
        color: Theme.text
    }
}
