// Where the index lives when no --index is given: the indexer and the
// searcher must agree, so the rule is spelled once, here.
#pragma once

#include <string>

namespace sagasu {

/// The index folder: explicit (--index) if set, else $SAGASU_INDEX, else
/// $XDG_DATA_HOME/sagasu/index, else $HOME/.local/share/sagasu/index.
/// The caller passes the environment's values (nullptr when unset).
inline std::string resolve_index_path(const std::string& explicit_path, const char* sagasu_index,
                                      const char* xdg_data_home, const char* home) {
  if (!explicit_path.empty()) return explicit_path;
  if (sagasu_index && *sagasu_index) return sagasu_index;
  if (xdg_data_home && *xdg_data_home) return std::string(xdg_data_home) + "/sagasu/index";
  if (home && *home) return std::string(home) + "/.local/share/sagasu/index";
  return ".sagasu-index";
}

}  // namespace sagasu
