// The schema, as a list of migrations. Migration N takes a database from
// user_version N-1 to N; each runs in one transaction. Never edit a released
// migration: add a new one.
#pragma once

#include <QStringList>

namespace Migrations {

// Statements of each migration; index 0 is migration 1.
const QList<QStringList>& all();

} // namespace Migrations
