import QtQuick
import QtQuick.Controls
import Hearth

// A text area where Tab and Shift+Tab move the focus as everywhere else
// (Ctrl+Tab types a tab character), with an edge that stands out from the
// background (3:1) and a thicker one while it has the focus.
TextArea {
    id: root

    wrapMode: TextArea.Wrap
    background: Rectangle {
        radius: Theme.radius
        color: Theme.sidebar
        border.width: root.activeFocus ? 2 : 1
        border.color: root.activeFocus ? Theme.focusRing : Theme.inputBorder
    }

    Keys.onTabPressed: event => {
        if (event.modifiers & Qt.ControlModifier) {
            root.remove(root.selectionStart, root.selectionEnd)
            root.insert(root.cursorPosition, "\t")
            return
        }
        const next = root.nextItemInFocusChain(true)
        if (next)
            next.forceActiveFocus(Qt.TabFocusReason)
    }
    Keys.onBacktabPressed: event => {
        const previous = root.nextItemInFocusChain(false)
        if (previous)
            previous.forceActiveFocus(Qt.BacktabFocusReason)
    }
}
