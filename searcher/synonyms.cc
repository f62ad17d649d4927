#include "synonyms.h"

#include "sagasu/schema.h"
#include "sagasu/strings.h"

namespace sagasu {

std::vector<std::string> Synonyms::of(const std::string& key) const {
  const std::string px(schema::META_SYNONYM);
  if (key.empty() || px.size() + key.size() > schema::MAX_TERM_BYTES) return {};
  return strings::split_nonempty(m_db.get_metadata(px + key), '\n');
}

}  // namespace sagasu
