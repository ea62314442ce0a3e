import QtQuick
import Hearth

// A thin bar for a fraction (context used, loading progress), drawn in the
// theme's colours rather than the style's progress bar.
Rectangle {
    id: root

    property real value: 0 // 0..1
    property color fill: Theme.accent
    // For screen readers (the value interface reads these names).
    readonly property real minimumValue: 0
    readonly property real maximumValue: 1

    implicitWidth: 120
    implicitHeight: 6
    radius: height / 2
    color: Theme.border
    Accessible.role: Accessible.ProgressBar

    Rectangle {
        width: Math.max(root.height, Math.min(1, root.value) * root.width)
        height: root.height
        radius: root.radius
        color: root.fill
        visible: root.value > 0
    }
}
