// Numbers as the views show them: sizes ("4.1 GB"), parameter counts
// ("135M", "7.2B"), token rates, durations. Pure functions, any thread.
#pragma once

#include <QString>

namespace Format {

QString bytes(qint64 bytes);    // "812 MB", "4.1 GB"
QString count(qint64 n);        // "135M", "7.2B", "950"
QString rate(double perSecond); // "38.2"
QString millis(double ms);      // "240 ms", "1.8 s"

} // namespace Format
