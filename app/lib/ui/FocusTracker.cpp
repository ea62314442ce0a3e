#include "ui/FocusTracker.h"

#include <QKeyEvent>
#include <QQuickItem>
#include <QQuickWindow>

#include <algorithm>

FocusTracker::FocusTracker(QObject* parent) : QObject(parent)
{
}

void FocusTracker::setWindow(QQuickWindow* window)
{
    if (window == m_window)
        return;
    if (m_window) {
        m_window->removeEventFilter(this);
        disconnect(m_window, nullptr, this, nullptr);
    }
    m_window = window;
    if (m_window) {
        m_window->installEventFilter(this);
        connect(m_window, &QQuickWindow::activeFocusItemChanged, this, &FocusTracker::onFocusChanged);
        // Scrolling, layout and animation move the target: follow it.
        connect(m_window, &QQuickWindow::afterAnimating, this, &FocusTracker::updateRect);
    }
    emit windowChanged();
    onFocusChanged();
}

static bool navigationKey(int key)
{
    switch (key) {
    case Qt::Key_Tab:
    case Qt::Key_Backtab:
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_PageUp:
    case Qt::Key_PageDown:
    case Qt::Key_Home:
    case Qt::Key_End: return true;
    default: return false;
    }
}

bool FocusTracker::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window) {
        const QEvent::Type type = event->type();
        if (type == QEvent::KeyPress && navigationKey(static_cast<QKeyEvent*>(event)->key())) {
            if (!m_keyboard) {
                m_keyboard = true;
                emit changed();
            }
        } else if (type == QEvent::MouseButtonPress || type == QEvent::TouchBegin) {
            if (m_keyboard) {
                m_keyboard = false;
                emit changed();
            }
        } else if (type == QEvent::KeyRelease && m_keyboard && m_target &&
                   navigationKey(static_cast<QKeyEvent*>(event)->key())) {
            // After the key has moved the focus or the list's current row.
            onFocusChanged();
        }
    }
    return QObject::eventFilter(watched, event);
}

QQuickItem* FocusTracker::ringTarget(QQuickItem* focused, QQuickWindow* window)
{
    if (!focused || !window || focused == window->contentItem())
        return nullptr;
    const QByteArray cls = focused->metaObject()->className();
    if (cls.startsWith("QQuickPopupItem") || cls.startsWith("QQuickOverlay") || cls.startsWith("QQuickRootItem"))
        return nullptr;
    if (focused->inherits("QQuickItemView")) {
        // A list with the focus: its current row is what the keys act on.
        auto* current = focused->property("currentItem").value<QQuickItem*>();
        return current ? current : focused;
    }
    return focused;
}

void FocusTracker::onFocusChanged()
{
    QQuickItem* target = m_window ? ringTarget(m_window->activeFocusItem(), m_window) : nullptr;
    if (target != m_target) {
        m_target = target;
        emit changed();
    }
    if (m_keyboard && m_target)
        scrollIntoView(m_target);
    updateRect();
}

void FocusTracker::updateRect()
{
    QRectF rect;
    if (m_target && m_target->isVisible() && m_target->window() == m_window)
        rect = m_target->mapRectToScene(QRectF(0, 0, m_target->width(), m_target->height()));
    if (rect != m_rect) {
        m_rect = rect;
        emit changed();
    }
}

void FocusTracker::scrollIntoView(QQuickItem* item)
{
    if (!item)
        return;
    const qreal margin = 8;
    for (QQuickItem* up = item->parentItem(); up; up = up->parentItem()) {
        if (!up->inherits("QQuickFlickable") || !up->property("interactive").toBool())
            continue;
        const QRectF r = item->mapRectToItem(up, QRectF(0, 0, item->width(), item->height()));
        const qreal height = up->height();
        qreal delta = 0;
        if (r.height() + 2 * margin >= height) {
            if (r.bottom() < 0 || r.top() > height)
                delta = r.top() - margin; // taller than the view and out of it: show its top
        } else if (r.top() < 0)
            delta = r.top() - margin;
        else if (r.bottom() > height)
            delta = r.bottom() - height + margin;
        if (delta == 0)
            continue;
        const qreal originY = up->property("originY").toReal();
        const qreal top = originY - up->property("topMargin").toReal();
        const qreal bottom = originY + up->property("contentHeight").toReal() + up->property("bottomMargin").toReal();
        const qreal y = std::clamp(up->property("contentY").toReal() + delta, top, std::max(top, bottom - height));
        up->setProperty("contentY", y);
    }
}
