#include "remote/SseParser.h"

QList<SseEvent> SseParser::feed(QByteArrayView bytes)
{
    QList<SseEvent> out;
    if (!m_error.isEmpty())
        return out;
    qsizetype i = 0;
    if (m_skipLf && !bytes.isEmpty()) {
        if (bytes.front() == '\n')
            ++i;
        m_skipLf = false;
    }
    while (i < bytes.size()) {
        qsizetype end = i;
        while (end < bytes.size() && bytes[end] != '\n' && bytes[end] != '\r')
            ++end;
        m_line.append(bytes.sliced(i, end - i));
        if (m_line.size() > maxLineBytes()) {
            m_error = "a line of the event stream is longer than 16 MiB";
            m_line.clear();
            return out;
        }
        if (end == bytes.size())
            break; // the line continues in the next chunk
        if (bytes[end] == '\r') {
            if (end + 1 < bytes.size()) {
                if (bytes[end + 1] == '\n')
                    ++end;
            } else {
                m_skipLf = true;
            }
        }
        i = end + 1;
        const QByteArray text = std::exchange(m_line, {});
        line(text, out);
    }
    return out;
}

void SseParser::line(QByteArrayView text, QList<SseEvent>& out)
{
    if (!m_started) {
        m_started = true;
        if (text.startsWith("\xEF\xBB\xBF"))
            text = text.sliced(3);
    }
    if (text.isEmpty()) { // dispatch
        if (m_hasData) {
            m_event.id = m_lastId;
            out.append(std::exchange(m_event, {}));
        } else {
            m_event = {};
        }
        m_hasData = false;
        return;
    }
    if (text.front() == ':')
        return; // a comment
    const qsizetype colon = text.indexOf(':');
    QByteArrayView field = colon < 0 ? text : text.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : text.sliced(colon + 1);
    if (value.startsWith(' '))
        value = value.sliced(1);
    if (field == "data") {
        if (m_hasData)
            m_event.data.append('\n');
        m_event.data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_event.type = value.toByteArray();
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_lastId = value.toByteArray();
    } // "retry" and unknown fields are ignored
}
