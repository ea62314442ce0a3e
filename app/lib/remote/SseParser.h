// Server-sent events (the WHATWG "text/event-stream" format) as OpenAI-style
// servers stream them: bytes in, whole events out. Chunks may split the
// stream anywhere (inside a line, between CR and LF, inside a UTF-8
// character); lines end in LF, CR or CRLF; ":" lines are comments
// (keep-alives); several "data:" lines of one event join with "\n"; a blank
// line ends an event. An event still open when the stream ends is dropped,
// as the format says. A line longer than maxLineBytes() is an error (a
// server that never ends a line must not exhaust memory).
//
// Plain data, no Qt event loop; not thread-safe (one parser per stream).
#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

struct SseEvent {
    QByteArray type = "message"; // the "event:" field
    QByteArray data;             // the "data:" lines joined with "\n"
    QByteArray id;               // the "id:" field, "" when none was sent
};

class SseParser {
public:
    static constexpr qsizetype maxLineBytes() { return 16 * 1024 * 1024; }

    // Parses `bytes` and returns the events they completed. After an error
    // (see error()) returns nothing more.
    QList<SseEvent> feed(QByteArrayView bytes);
    // "" or why the stream cannot be parsed.
    const QByteArray& error() const { return m_error; }

private:
    void line(QByteArrayView text, QList<SseEvent>& out);

    QByteArray m_line;      // the line being received
    bool m_skipLf = false;  // the last chunk ended in CR: an LF next belongs to it
    bool m_started = false; // past a leading byte-order mark
    SseEvent m_event;
    bool m_hasData = false;
    QByteArray m_lastId;
    QByteArray m_error;
};
