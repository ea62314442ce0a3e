// CPU time consumed by the calling thread, in nanoseconds: what a piece of
// work cost, without the time the OS gave other processes meanwhile (a wall
// clock on a busy machine measures the machine, not the code). POSIX
// thread CPU clock; QElapsedTimer's wall clock elsewhere.
#pragma once

#include <QElapsedTimer>
#include <QtGlobal>

#if defined(Q_OS_UNIX)
#include <time.h>
#endif

class ThreadClock {
public:
    void start() { m_start = now(); }
    qint64 nsecsElapsed() const { return now() - m_start; }

private:
    static qint64 now()
    {
#if defined(Q_OS_UNIX) && defined(CLOCK_THREAD_CPUTIME_ID)
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
#else
        static QElapsedTimer wall;
        if (!wall.isValid())
            wall.start();
        return wall.nsecsElapsed();
#endif
    }

    qint64 m_start = 0;
};
