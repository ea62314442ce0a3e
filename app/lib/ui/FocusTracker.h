// Keyboard focus made visible and kept in view, for a whole window at once:
// once the user moves with the keyboard (Tab, Shift+Tab, arrows, Page
// keys), `active` turns on and `rect` follows the item with the active
// focus (for a list, its current row) in window coordinates, every frame, so
// one ring drawn in the overlay marks it; a mouse press turns it off, as
// browsers do (:focus-visible). When focus moves by keyboard to an item
// scrolled out of its Flickable (a ListView, a ScrollView), the Flickables
// around it scroll just enough to show it. GUI thread.
#pragma once

#include <QObject>
#include <QPointer>
#include <QQuickItem>
#include <QQuickWindow>
#include <QRectF>
#include <QtQml/qqmlregistration.h>

class FocusTracker : public QObject {
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(QQuickWindow* window READ window WRITE setWindow NOTIFY windowChanged)
    Q_PROPERTY(bool active READ active NOTIFY changed)
    Q_PROPERTY(QRectF rect READ rect NOTIFY changed)
    Q_PROPERTY(QQuickItem* target READ target NOTIFY changed)

public:
    explicit FocusTracker(QObject* parent = nullptr);

    QQuickWindow* window() const { return m_window; }
    void setWindow(QQuickWindow* window);
    bool active() const { return m_keyboard && m_target; }
    QRectF rect() const { return m_rect; }
    QQuickItem* target() const { return m_target; }

    // Scrolls the Flickables around `item` so that it is in view.
    static void scrollIntoView(QQuickItem* item);
    // What a ring should surround when `focused` has the active focus: its
    // current row for a list, nothing for a popup's or window's own item.
    static QQuickItem* ringTarget(QQuickItem* focused, QQuickWindow* window);

signals:
    void windowChanged();
    void changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onFocusChanged();
    void updateRect();

    QPointer<QQuickWindow> m_window;
    QPointer<QQuickItem> m_target;
    QRectF m_rect;
    bool m_keyboard = false;
};
