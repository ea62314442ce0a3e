// Colours and metrics of the views. Follows the system's light or dark
// preference (the desktop portal's color-scheme where published, else the
// platform palette; and their changes) unless the user picked one;
// HEARTH_THEME=light or =dark overrides both (screenshots, tests). Presentation state only, so
// a QML singleton; the views also hand `dark` to the session so that the
// rendered Markdown uses the same palette.
#pragma once

#include <QColor>
#include <QObject>
#include <QtQml/qqmlregistration.h>

class Theme : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    Q_PROPERTY(Mode mode READ mode WRITE setMode NOTIFY changed)
    Q_PROPERTY(bool dark READ dark NOTIFY changed)
    Q_PROPERTY(QColor window READ window NOTIFY changed)
    Q_PROPERTY(QColor surface READ surface NOTIFY changed)
    Q_PROPERTY(QColor sidebar READ sidebar NOTIFY changed)
    Q_PROPERTY(QColor userBubble READ userBubble NOTIFY changed)
    Q_PROPERTY(QColor text READ text NOTIFY changed)
    Q_PROPERTY(QColor mutedText READ mutedText NOTIFY changed)
    Q_PROPERTY(QColor accent READ accent NOTIFY changed)
    Q_PROPERTY(QColor accentText READ accentText NOTIFY changed)
    Q_PROPERTY(QColor border READ border NOTIFY changed)
    Q_PROPERTY(QColor codeBackground READ codeBackground NOTIFY changed)
    Q_PROPERTY(QColor codeHeader READ codeHeader NOTIFY changed)
    Q_PROPERTY(QColor highlight READ highlight NOTIFY changed)
    Q_PROPERTY(QColor danger READ danger NOTIFY changed)
    Q_PROPERTY(QColor warning READ warning NOTIFY changed)
    Q_PROPERTY(QColor success READ success NOTIFY changed)
    Q_PROPERTY(QColor focusRing READ focusRing NOTIFY changed)
    Q_PROPERTY(QColor inputBorder READ inputBorder NOTIFY changed)
    Q_PROPERTY(int radius READ radius CONSTANT)
    Q_PROPERTY(int spacing READ spacing CONSTANT)
    Q_PROPERTY(QString monospaceFamily READ monospaceFamily CONSTANT)

public:
    enum Mode {
        System,
        Light,
        Dark
    };
    Q_ENUM(Mode)

    explicit Theme(QObject* parent = nullptr);

    Mode mode() const { return m_mode; }
    void setMode(Mode mode); // persisted in QSettings (appearance/theme)
    bool dark() const { return m_dark; }

    QColor window() const { return pick(0xffffff, 0x0d1117); }
    QColor surface() const { return pick(0xffffff, 0x0d1117); }
    QColor sidebar() const { return pick(0xf6f8fa, 0x161b22); }
    QColor userBubble() const { return pick(0xeef2f7, 0x1f2630); }
    QColor text() const { return pick(0x1f2328, 0xe6edf3); }
    QColor mutedText() const { return pick(0x656d76, 0x8d96a0); }
    QColor accent() const { return pick(0xd9480f, 0xff7a45); }
    QColor accentText() const { return QColor(0xffffff); }
    QColor border() const { return pick(0xd0d7de, 0x30363d); }
    QColor codeBackground() const { return pick(0xf6f8fa, 0x161b22); }
    QColor codeHeader() const { return pick(0xeaeef2, 0x21262d); }
    QColor highlight() const { return pick(0xfff1e6, 0x3a2418); }
    QColor danger() const { return pick(0xcf222e, 0xf85149); }
    QColor warning() const { return pick(0x9a6700, 0xd29922); }
    QColor success() const { return pick(0x1a7f37, 0x3fb950); }
    // The keyboard focus ring and the edges of text fields: at least 3:1
    // against window, surface and sidebar (WCAG 2.1, 1.4.11).
    QColor focusRing() const { return pick(0x0969da, 0x58a6ff); }
    QColor inputBorder() const { return pick(0x818b98, 0x6e7681); }
    int radius() const { return 8; }
    int spacing() const { return 8; }
    QString monospaceFamily() const;

    // The WCAG contrast ratio of two colours (1 to 21).
    Q_INVOKABLE static double contrast(const QColor& a, const QColor& b);

    // Whether the platform's palette is a dark one.
    static bool systemIsDark();

signals:
    void changed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QColor pick(QRgb light, QRgb dark) const { return QColor(m_dark ? dark : light); }
    void update();

    class ColorSchemePortal* m_portal = nullptr;
    Mode m_mode = System;
    bool m_dark = false;
};
