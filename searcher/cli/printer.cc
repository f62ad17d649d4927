#include "printer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_support.h"
#include "sagasu/error.h"
#include "sagasu/note.h"
#include "sagasu/schema.h"
#include "sagasu/unicode.h"

namespace sagasu {
namespace {

constexpr std::string_view ELLIPSIS = "…";

// A fragment with its text made safe for a terminal (cli::visible), the
// highlights moved with it: each piece between highlight edges escaped alone.
Fragment visible(const Fragment& f) {
  Fragment out = f;
  out.text.clear();
  out.highlights.clear();
  std::size_t at = 0;
  for (const auto& [b, e] : f.highlights) {
    out.text += cli::visible(std::string_view(f.text).substr(at, b - at));
    const std::size_t begin = out.text.size();
    out.text += cli::visible(std::string_view(f.text).substr(b, e - b));
    out.highlights.emplace_back(begin, out.text.size());
    at = e;
  }
  out.text += cli::visible(std::string_view(f.text).substr(at));
  for (auto& source : out.sources) source = cli::visible(source);
  return out;
}

// A hit as the terminal may show it: what came from notes and file names escaped.
Hit visible(const Hit& h) {
  Hit out = h;
  out.title = cli::visible(h.title);
  out.path = cli::visible(h.path);
  out.kind = cli::visible(h.kind);
  for (auto& [field, values] : out.values)
    for (auto& v : values) v = cli::visible(v);
  for (auto& f : out.fragments) f = visible(f);
  for (auto& [piece, b] : out.bridged) {
    piece = cli::visible(piece);
    b.equivalent = cli::visible(b.equivalent);
  }
  return out;
}

// Terminal columns of a line, ANSI colour codes (ESC [ … m) taking none.
std::size_t line_width(std::string_view line) {
  std::string plain;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      while (i < line.size() && line[i] != 'm') ++i;
      continue;
    }
    plain += line[i];
  }
  return unicode::display_width(plain);
}

// The longest prefix of text (cut at a character boundary) of at most cols columns.
std::size_t prefix_fitting(std::string_view text, std::size_t cols) {
  const auto cuts = unicode::char_boundaries(text);
  std::size_t used = 0, end = 0;
  for (std::size_t k = 1; k < cuts.size(); ++k) {
    used += unicode::display_width(text.substr(cuts[k - 1], cuts[k] - cuts[k - 1]));
    if (used > cols) break;
    end = cuts[k];
  }
  return end;
}

// text in at most cols columns: whole, or its start and "…".
std::string fit(std::string_view text, std::size_t cols) {
  if (unicode::display_width(text) <= cols) return std::string(text);
  if (cols == 0) return {};
  return std::string(text.substr(0, prefix_fitting(text, cols - 1))) + std::string(ELLIPSIS);
}

// text in at most cols columns: whole, or "…" and its end (a path keeps its file name).
std::string fit_end(std::string_view text, std::size_t cols) {
  if (unicode::display_width(text) <= cols) return std::string(text);
  if (cols == 0) return {};
  const auto cuts = unicode::char_boundaries(text);
  std::size_t used = 1, begin = text.size();
  for (std::size_t k = cuts.size() - 1; k > 0; --k) {
    used += unicode::display_width(text.substr(cuts[k - 1], cuts[k] - cuts[k - 1]));
    if (used > cols) break;
    begin = cuts[k - 1];
  }
  return std::string(ELLIPSIS) + std::string(text.substr(begin));
}

// A snippet's sources as a reader places them: "OSDI 2026" for a citation
// key "2026__OSDI__SDCs in the Wild - …", the key itself otherwise; once each.
std::string short_sources(const std::vector<std::string>& keys) {
  std::vector<std::string> out;
  for (const auto& key : keys) {
    const auto c = parse_citation(key);
    std::string s = c && !c->venue.empty() ? fmt::format("{} {}", c->venue, c->year) : key;
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(std::move(s));
  }
  return fmt::format("{}", fmt::join(out, " / "));
}

constexpr const char* HL_ON_COLOR = "\x1b[1;31m";
constexpr const char* HL_OFF_COLOR = "\x1b[0m";
constexpr const char* HL_ON_PLAIN = "**";
constexpr const char* HL_OFF_PLAIN = "**";

std::string join(const std::vector<std::string>& v, const char* sep) {
  return fmt::format("{}", fmt::join(v, sep));
}

// The note's values of a facet, as the hit lists them.
const std::vector<std::string>& values_of(const Hit& h, const schema::Field& f) {
  static const std::vector<std::string> none;
  const auto it = h.values.find(std::string(f.name));
  return it == h.values.end() ? none : it->second;
}

std::string highlight(const Fragment& f, bool color) {
  std::string out;
  std::size_t at = 0;
  for (const auto& [b, e] : f.highlights) {
    out.append(f.text, at, b - at);
    out += color ? HL_ON_COLOR : HL_ON_PLAIN;
    out.append(f.text, b, e - b);
    out += color ? HL_OFF_COLOR : HL_OFF_PLAIN;
    at = e;
  }
  out.append(f.text, at, std::string::npos);
  return out;
}

nlohmann::json hit_json(const Hit& h) {
  nlohmann::json jh;
  jh["rank"] = h.rank;
  jh["score"] = std::round(h.score * 1e4) / 1e4;
  jh["path"] = h.path;
  jh["file"] = h.file;
  jh["title"] = h.title;
  jh["kind"] = h.kind;
  jh["tier"] = to_string(h.tier);
  if (!h.beyond.empty()) jh["beyond"] = h.beyond;
  if (!h.bridged.empty()) {
    auto bridged = nlohmann::json::array();
    for (const auto& [piece, b] : h.bridged)
      bridged.push_back({{"piece", piece}, {"equivalent", b.equivalent}, {"how", to_string(b.how)}});
    jh["bridged"] = std::move(bridged);
  }
  if (!h.score_parts.empty()) {
    nlohmann::json parts = nlohmann::json::object();
    for (const auto& [name, w] : h.score_parts) parts[name] = std::round(w * 1e4) / 1e4;
    jh["score_parts"] = std::move(parts);
  }
  for (const schema::Field& f : schema::FIELDS)
    if (!f.hit_key.empty()) jh[std::string(f.hit_key)] = values_of(h, f);
  auto frags = nlohmann::json::array();
  for (const Fragment& f : h.fragments) {
    auto hl = nlohmann::json::array();
    for (const auto& [b, e] : f.highlights) hl.push_back({b, e});
    frags.push_back({{"text", f.text},
                     {"highlights", hl},
                     {"cut_before", f.cut_before},
                     {"cut_after", f.cut_after},
                     {"sources", f.sources}});
  }
  jh["snippets"] = std::move(frags);
  return jh;
}

// Results without some shards say so; complete ones carry no such fields.
void add_partial_json(nlohmann::json& j, const SearchResult& res) {
  if (res.missing_shards.empty()) return;
  j["partial"] = true;
  j["missing_shards"] = res.missing_shards;
}

void add_facets_json(nlohmann::json& j, const SearchResult& res) {
  nlohmann::json facets = nlohmann::json::object();
  auto sideways = nlohmann::json::array();
  for (const auto& f : res.facets) {
    auto values = nlohmann::json::array();
    for (const auto& v : f.values) {
      nlohmann::json jv{{"value", v.value}, {"count", v.count}};
      if (v.selected) jv["selected"] = true;
      values.push_back(std::move(jv));
    }
    facets[f.name] = std::move(values);
    if (f.sideways) sideways.push_back(f.name);
  }
  j["facets"] = std::move(facets);
  j["facets_sideways"] = std::move(sideways);
}

// What --json's object and --jsonl's summary line both say of a result: all but the hits.
nlohmann::json summary_json(const SearchRequest& req, const SearchResult& res) {
  nlohmann::json j;
  j["version"] = JSON_VERSION;
  j["query"] = req.query;
  j["filters"] = req.filters;
  j["total"] = res.total;
  j["offset"] = req.offset;
  j["limit"] = req.limit;
  add_facets_json(j, res);
  j["notices"] = res.notices;
  j["suggestions"] = res.suggestions;
  j["correction"] = res.correction;
  j["loose_more"] = res.loose_more;
  add_partial_json(j, res);
  return j;
}

nlohmann::json bridges_json(const std::vector<Bridge>& bridges) {
  auto out = nlohmann::json::array();
  for (const auto& b : bridges)
    out.push_back(
        {{"equivalent", b.equivalent}, {"how", to_string(b.how)}, {"loose", b.loose}, {"why", b.why}});
  return out;
}

// "reinforcement learning (gloss: 2 notes state it) / 強化 (dictionary, loose: no note uses the two as one)"
std::string bridges_text(const std::vector<Bridge>& bridges) {
  std::string out;
  for (const auto& b : bridges)
    out += fmt::format("{}{} ({}{}{}{})", out.empty() ? "" : " / ", cli::visible(b.equivalent),
                       to_string(b.how), b.loose ? ", loose" : "", b.why.empty() ? "" : ": ", b.why);
  return out;
}

nlohmann::json explain_json(const SearchResult& res) {
  nlohmann::json chunks = nlohmann::json::array();
  for (const auto& c : res.chunks)
    chunks.push_back({{"text", c.text},
                      {"phrase", c.phrase},
                      {"words", c.words},
                      {"inflections", c.inflections},
                      {"synonyms", c.synonyms},
                      {"bridges", bridges_json(c.bridges)},
                      {"substring", c.substring},
                      {"substring_loose", c.inside_words_loose},
                      {"compounds", c.compounds},
                      {"grams", c.grams}});
  return {{"chunks", chunks}, {"xapian_query", res.query_description}};
}

// The --explain preamble: the query's pieces in every tier and the Xapian query.
void text_explain(std::string& out, const SearchResult& res) {
  out += "query pieces:\n";
  for (const auto& c : res.chunks) {
    out += fmt::format("  {}{}{}\n", c.phrase ? "\"" : "", c.text, c.phrase ? "\"" : "");
    out += fmt::format(
        "    word tier:      {}{}\n", join(c.words, " + "),
        c.words.size() > 1 ? (c.phrase ? "  (adjacent)" : "  (adjacent; scattered ranks lower)") : "");
    if (!c.inflections.empty()) out += fmt::format("    inflections:    {}\n", join(c.inflections, " "));
    if (!c.synonyms.empty()) out += fmt::format("    other names:    {}\n", join(c.synonyms, " / "));
    if (!c.bridges.empty()) out += fmt::format("    bridge tier:    {}\n", bridges_text(c.bridges));
    if (!c.substring.empty())
      out += fmt::format("    substring tier: {}  (grams {}){}\n", c.substring, join(c.grams, " "),
                         c.inside_words_loose ? "; inside longer words, loose: a word of the notes" : "");
    if (!c.compounds.empty()) {
      // (A common word is in hundreds: a few say what they are.)
      constexpr std::size_t SHOWN = 8;
      const std::vector<std::string> some(c.compounds.begin(),
                                          c.compounds.begin() + std::min(SHOWN, c.compounds.size()));
      out += fmt::format("    in compounds:   {}{}  ({} longer words read as words with it)\n",
                         join(some, " "), c.compounds.size() > SHOWN ? " …" : "", c.compounds.size());
    }
  }
  out += fmt::format("xapian query: {}\n\n", res.query_description);
}

// Paths relative to the current folder, as people and xargs use them.
std::string shown_path(const Hit& h, const std::filesystem::path& cwd) {
  if (h.file.empty()) return h.path;
  const std::string rel = std::filesystem::path(h.file).lexically_relative(cwd).generic_string();
  return rel.empty() ? h.file : rel;
}

std::filesystem::path current_folder() {
  std::error_code ec;
  return std::filesystem::current_path(ec);
}

// Results for people: rank, title, path, kind, years/venues, snippets, facets.
class TextPrinter : public Printer {
 public:
  explicit TextPrinter(const PrintOptions& o)
      : m_facet_limit(o.facet_limit),
        m_width(o.width),
        m_color(o.color),
        m_bold(o.color ? "\x1b[1m" : ""),
        m_dim(o.color ? "\x1b[2m" : ""),
        m_green(o.color ? "\x1b[32m" : ""),
        m_reset(o.color ? "\x1b[0m" : "") {}

  void result(std::string& out, const SearchRequest& req, const SearchResult& res) override {
    std::string text;
    if (req.explain) text_explain(text, res);
    for (const Hit& h : res.hits) hit(text, visible(h));
    // The list goes on past the hits, under a line that says how they match.
    std::string how;
    for (const Hit& h : res.beyond) {
      if (h.beyond != how)
        text += fmt::format("{}-- not counted: notes with {} --{}\n", m_dim, h.beyond, m_reset);
      how = h.beyond;
      hit(text, visible(h));
    }
    if (!res.hits.empty() || !res.beyond.empty()) text += '\n';
    const std::size_t first = res.hits.empty() ? 0 : req.offset + 1;
    // An offset past the last hit shows none (not "showing 0–offset").
    const std::string shown = res.hits.empty() && res.total > 0 && req.offset > 0
                                  ? fmt::format("none shown after --offset {}", req.offset)
                                  : fmt::format("showing {}–{}", first, req.offset + res.hits.size());
    text += fmt::format("{} {} ({}){}\n", res.total, res.total == 1 ? "hit" : "hits", shown,
                        res.loose_more ? fmt::format("; {} more with {} (--loose lists them)", res.loose_more,
                                                     res.loose_by.text())
                                       : "");
    for (const auto& f : res.facets) facet(text, f);
    for (const auto& f : res.facets)
      if (f.sideways) {
        text += fmt::format("{}(* = filter; counts of a filtered facet are without its own filter){}\n",
                            m_dim, m_reset);
        break;
      }
    // What the parts above did not fit (the explain lines, the totals) is cut here.
    out += m_width ? fit_lines(text, m_width) : text;
  }

 private:
  void hit(std::string& out, const Hit& h) const {
    std::string meta = h.kind;
    const auto& years = values_of(h, schema::YEAR);
    const auto& venues = values_of(h, schema::VENUE);
    if (!years.empty() || !venues.empty()) {
      meta += " · ";
      meta += join(years, ",");
      if (!years.empty() && !venues.empty()) meta += " ";
      meta += join(venues, ",");
    }
    if (h.tier != Tier::Word) meta += fmt::format(" · {} match", to_string(h.tier));
    for (const auto& [piece, b] : h.bridged)  // (a definition: the equivalent is a kind of the piece)
      meta += fmt::format(" · {} {} {}", piece, b.how == Provenance::Definition ? "⊃" : "=", b.equivalent);
    std::string title = h.title, path = h.path;
    const std::string rank = fmt::format("{:>2}. ", h.rank);
    if (m_width) {
      // The title gives way first; the kind, years and venues keep at least half the line.
      meta = fit(meta, std::max<std::size_t>(m_width / 2, 8));
      const std::size_t fixed = unicode::display_width(rank) + unicode::display_width(meta) + 4;  // "  [" "]"
      title = fit(title, m_width > fixed ? m_width - fixed : 1);
      path = fit_end(path, m_width > 4 ? m_width - 4 : 1);
    }
    out += fmt::format("{}{}{}{}  [{}]\n", rank, m_bold, title, m_reset, meta);
    out += fmt::format("    {}{}{}\n", m_green, path, m_reset);
    if (!h.score_parts.empty()) {
      std::string parts;
      for (const auto& [name, w] : h.score_parts)
        parts += fmt::format("{}{} {:.4f}", parts.empty() ? "" : ", ", name, w);
      std::string bridged;
      for (const auto& [piece, b] : h.bridged)
        bridged += fmt::format("; bridge {} → {} ({})", piece, b.equivalent, to_string(b.how));
      out += fmt::format("    {}score {:.4f} = {}; tier {}{}{}\n", m_dim, h.score, parts, to_string(h.tier),
                         bridged, m_reset);
    }
    for (const Fragment& f : h.fragments) {
      if (m_width) {
        const std::string sources = f.sources.empty() ? "" : "  ← " + short_sources(f.sources);
        const std::size_t used = 4 + unicode::display_width(sources);
        out += "    " + fitted_fragment(f, m_width > used + 10 ? m_width - used : 10);
        if (!sources.empty()) out += fmt::format("{}{}{}", m_dim, sources, m_reset);
        out += '\n';
        continue;
      }
      out +=
          fmt::format("    {}{}{}", f.cut_before ? "…" : "", highlight(f, m_color), f.cut_after ? "…" : "");
      if (!f.sources.empty()) out += fmt::format("  {}← {}{}", m_dim, join(f.sources, " / "), m_reset);
      out += '\n';
    }
  }

  // A fragment in at most cols columns, with its highlights: cut at character
  // boundaries, its start dropped when the first highlight would not be seen
  // in the first two thirds of the line, "…" where text was left out.
  std::string fitted_fragment(const Fragment& f, std::size_t cols) const {
    const std::string_view text = f.text;
    const auto cuts = unicode::char_boundaries(text);
    const std::size_t marker = m_color ? 0 : 2 * std::string_view(HL_ON_PLAIN).size();  // "**" on and off
    auto width_of = [&](std::size_t k) {
      return unicode::display_width(text.substr(cuts[k - 1], cuts[k] - cuts[k - 1]));
    };
    // Where the window starts (a character index into cuts).
    std::size_t first = 0;
    if (!f.highlights.empty()) {
      const std::size_t hl = f.highlights.front().first;
      if (unicode::display_width(text.substr(0, hl)) + 1 > cols * 2 / 3) {
        std::size_t k = 0;
        while (k + 1 < cuts.size() && cuts[k + 1] <= hl) ++k;  // the character the highlight starts with
        std::size_t before = 0;
        while (k > 0 && before + width_of(k) <= cols / 4) before += width_of(k--);
        first = k;
      }
    }
    const bool lead = f.cut_before || first > 0;
    std::size_t used = lead ? 1 : 0, last = first;
    auto highlight_starts = [&](std::size_t byte) {
      return std::any_of(f.highlights.begin(), f.highlights.end(),
                         [&](const auto& h) { return h.first == byte; });
    };
    for (std::size_t k = first + 1; k < cuts.size(); ++k) {
      const std::size_t w = width_of(k) + (highlight_starts(cuts[k - 1]) ? marker : 0);
      const bool at_end = k + 1 == cuts.size();
      if (used + w + (at_end && !f.cut_after ? 0 : 1) > cols) break;
      used += w;
      last = k;
    }
    Fragment shown;
    shown.text = std::string(text.substr(cuts[first], cuts[last] - cuts[first]));
    for (const auto& [b, e] : f.highlights) {
      const std::size_t nb = std::max(b, cuts[first]), ne = std::min(e, cuts[last]);
      if (nb < ne) shown.highlights.emplace_back(nb - cuts[first], ne - cuts[first]);
    }
    const bool trail = f.cut_after || last + 1 < cuts.size();
    return fmt::format("{}{}{}", lead ? ELLIPSIS : "", highlight(shown, m_color), trail ? ELLIPSIS : "");
  }

  void facet(std::string& out, const FacetCounts& f) const {
    if (f.values.empty()) return;
    if (m_width && f.name == schema::YEAR.name && year_histogram(out, f)) return;
    std::string line;
    std::size_t shown = 0, cols = 8;  // "venue:  "
    for (const auto& v : f.values) {
      // A selected value is marked; a filtered facet shows the other values' counts too.
      const std::string item = fmt::format("{}{}{} ({}){}", v.selected ? m_bold : "", cli::visible(v.value),
                                           v.selected ? "*" : "", v.count, v.selected ? m_reset : "");
      const std::size_t more = f.values.size() - shown;
      const std::string rest = fmt::format("  … {} more", more);
      // On a terminal, as many values as fit, with room left to say how many more.
      const bool fits =
          !m_width ||
          cols + 2 + line_width(item) + (more > 1 ? line_width(fmt::format("  … {} more", more - 1)) : 0) <=
              m_width;
      if ((m_facet_limit > 0 && shown == m_facet_limit) || (!fits && shown > 0)) {
        line += rest;
        break;
      }
      line += (line.empty() ? "" : "  ") + item;
      cols += 2 + line_width(item);
      ++shown;
    }
    out += fmt::format("{}{:<7}{} {}\n", m_dim, f.name + ":", m_reset, line);
  }

  // The year facet on a terminal, when it holds several years: one line,
  // "year:   2018 ▁▂▅ █▇ 2026", a bar per year (a blank for a year without
  // notes; years grouped when the span is wider than the line). False when
  // the values are not several years.
  bool year_histogram(std::string& out, const FacetCounts& f) const {
    std::map<int, std::size_t> counts;
    for (const auto& v : f.values) {
      if (v.value.size() != 4 || !std::all_of(v.value.begin(), v.value.end(), ::isdigit)) return false;
      counts[std::stoi(v.value)] += v.count;
    }
    if (counts.size() < 2) return false;
    const int lo = counts.begin()->first, hi = counts.rbegin()->first;
    const std::size_t room = m_width > 8 + 12 ? m_width - 8 - 12 : 1;  // "year:   2018 " … " 2026"
    const std::size_t span = static_cast<std::size_t>(hi - lo + 1);
    const std::size_t per_bar = (span + room - 1) / room;
    std::vector<std::size_t> bars((span + per_bar - 1) / per_bar, 0);
    for (const auto& [year, n] : counts) bars[static_cast<std::size_t>(year - lo) / per_bar] += n;
    const std::size_t top = *std::max_element(bars.begin(), bars.end());
    static const char* const levels[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    std::string line;
    for (std::size_t n : bars) line += n == 0 ? " " : levels[(n * 8 - 1) / top];
    out += fmt::format("{}{:<7}{} {} {}{}{} {}\n", m_dim, "year:", m_reset, lo, m_bold, line, m_reset, hi);
    return true;
  }

  std::size_t m_facet_limit;
  std::size_t m_width;  // 0: no limit
  bool m_color;
  const char *m_bold, *m_dim, *m_green, *m_reset;
};

// The documented JSON object (README "JSON output"), one line.
class JsonPrinter : public Printer {
 public:
  void result(std::string& out, const SearchRequest& req, const SearchResult& res) override {
    out += dump(result_json(req, res));
    out += '\n';
  }

  void facet_list(std::string& out, const FacetCounts& facet) override {
    auto values = nlohmann::json::array();
    for (const auto& v : facet.values) values.push_back({{"value", v.value}, {"count", v.count}});
    out += dump(nlohmann::json{{"version", JSON_VERSION}, {"facet", facet.name}, {"values", values}});
    out += '\n';
  }
};

// JSON Lines: one {"type":"hit"} object per hit, then one {"type":"summary"} with totals and facets.
class JsonLinesPrinter : public Printer {
 public:
  void result(std::string& out, const SearchRequest& req, const SearchResult& res) override {
    for (const Hit& h : res.hits) {
      nlohmann::json jh = hit_json(h);
      jh["type"] = "hit";
      jh["version"] = JSON_VERSION;
      out += dump(jh);
      out += '\n';
    }
    nlohmann::json summary = summary_json(req, res);
    summary["type"] = "summary";
    out += dump(summary);
    out += '\n';
  }
};

// A path as a line xargs reads whole: escaped for the terminal, and xargs'
// blanks and quotes backslash-escaped; with null, NUL-terminated and raw (xargs -0).
std::string xargs_line(const std::string& p, bool null = false) {
  if (null) return p + '\0';  // for xargs -0, not a terminal: the path as it is
  std::string out;
  for (char c : cli::visible(p)) {
    if (c == ' ' || c == '\t' || c == '\'' || c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '\n';
}

// One path per hit, relative to the current folder: newline-terminated with
// blanks and quotes backslash-escaped (for xargs), or NUL-terminated and raw.
class PathsPrinter : public Printer {
 public:
  explicit PathsPrinter(bool null_separated) : m_null(null_separated) {}

  void result(std::string& out, const SearchRequest&, const SearchResult& res) override {
    const auto cwd = current_folder();
    for (const Hit& h : res.hits) out += xargs_line(shown_path(h, cwd), m_null);
  }

 private:
  bool m_null;
};

// path:line:column:text for each match in each hit's file (editors, fzf);
// with colour, the matched words of the text highlighted. NUL-separated, the
// path is written as it is and ends with NUL instead of ':' (as ripgrep's
// --null), so a program reads any file name a vault can hold.
class VimgrepPrinter : public Printer {
 public:
  VimgrepPrinter(Analyzer& analyzer, bool color, bool null_separated)
      : m_analyzer(analyzer), m_color(color), m_null(null_separated) {}

  void result(std::string& out, const SearchRequest&, const SearchResult& res) override {
    const auto cwd = current_folder();
    for (const Hit& h : res.hits) {
      const std::vector<LineMatch> lines = line_matches(h, m_analyzer);
      if (lines.empty()) continue;
      const std::string p = m_null ? shown_path(h, cwd) + '\0' : cli::visible(shown_path(h, cwd)) + ':';
      for (const LineMatch& m : lines) {
        // The columns are the file's (where the editor jumps); the text is escaped for the terminal.
        if (m.text.size() <= MAX_VIMGREP_LINE) {
          const std::string text = shown(m, 0, m.text.size());
          for (const auto& [b, e] : m.spans) out += fmt::format("{}{}:{}:{}\n", p, m.line, b + 1, text);
          continue;
        }
        // A long line (a one-line note of megabytes): each match with the text around it, not the
        // whole line once per match; a match longer than the window is cut.
        for (const auto& [b, e] : m.spans) {
          std::size_t from = b > MAX_VIMGREP_LINE / 4 ? b - MAX_VIMGREP_LINE / 4 : 0;
          std::size_t to = std::min(m.text.size(), from + MAX_VIMGREP_LINE);
          from = unicode::char_start(m.text, from);
          while (to < m.text.size() && (static_cast<unsigned char>(m.text[to]) & 0xC0) == 0x80) ++to;
          out += fmt::format("{}{}:{}:{}{}{}\n", p, m.line, b + 1, from > 0 ? ELLIPSIS : "",
                             shown(m, from, to), to < m.text.size() ? ELLIPSIS : "");
        }
      }
    }
  }

 private:
  // Lines longer than this show each match with the text around it.
  static constexpr std::size_t MAX_VIMGREP_LINE = 400;

  // Bytes [from, to) of the line, escaped for the terminal, the matches in it
  // highlighted (found by bisection: a line of megabytes may hold a million).
  std::string shown(const LineMatch& m, std::size_t from, std::size_t to) const {
    Fragment f;
    f.text = m.text.substr(from, to - from);
    auto it = std::lower_bound(m.spans.begin(), m.spans.end(), std::pair<std::size_t, std::size_t>(from, 0));
    for (; it != m.spans.end() && it->first < to; ++it)
      f.highlights.emplace_back(it->first - from, std::min(it->second, to) - from);
    f = visible(f);
    return m_color ? highlight(f, true) : f.text;
  }

  Analyzer& m_analyzer;
  bool m_color;
  bool m_null;
};

}  // namespace

// JSON text, whatever bytes the values hold: a byte that is not UTF-8 (a vault
// folder named in another encoding) becomes U+FFFD instead of failing the output.
std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json backlinks_json(const Backlinks& b) {
  auto notes = nlohmann::json::array();
  for (const auto& n : b.notes) {
    auto lines = nlohmann::json::array();
    for (const auto& l : n.lines) lines.push_back({{"line", l.line}, {"text", l.text}});
    notes.push_back(
        {{"path", n.note.path}, {"title", n.note.title}, {"kind", n.note.kind}, {"lines", lines}});
  }
  return {{"path", b.target.path},
          {"title", b.target.title},
          {"total", b.total},
          {"backlinks", std::move(notes)}};
}

std::string backlinks_text(const Backlinks& b, OutputFormat format, bool null_separated) {
  std::string out;
  if (format == OutputFormat::Json || format == OutputFormat::JsonLines)
    return dump(backlinks_json(b)) + "\n";
  const auto cwd = current_folder();
  for (const auto& n : b.notes) {
    const std::string p = shown_path(n.note, cwd);
    if (format == OutputFormat::Paths) {
      out += xargs_line(p, null_separated);
      continue;
    }
    for (const auto& l : n.lines)
      out += fmt::format("{}:{}:{}\n", cli::visible(p), l.line, cli::visible(l.text));
  }
  return out;
}

nlohmann::json related_json(const Related& r) {
  auto notes = nlohmann::json::array();
  for (const auto& n : r.notes)
    notes.push_back({{"path", n.note.path},
                     {"title", n.note.title},
                     {"kind", n.note.kind},
                     {"score", std::round(n.note.score * 1e4) / 1e4},
                     {"why", n.why}});
  return {{"path", r.target.path}, {"title", r.target.title}, {"related", std::move(notes)}};
}

std::string related_text(const Related& r, OutputFormat format, bool null_separated) {
  if (format == OutputFormat::Json || format == OutputFormat::JsonLines) return dump(related_json(r)) + "\n";
  std::string out;
  const auto cwd = current_folder();
  for (const auto& n : r.notes) {
    const std::string p = shown_path(n.note, cwd);
    if (format == OutputFormat::Paths || format == OutputFormat::Vimgrep) {
      out += xargs_line(p, null_separated);
      continue;
    }
    out += fmt::format("{:2}. {}  [{}]\n    {}\n    {}\n", n.note.rank, cli::visible(n.note.title),
                       cli::visible(n.note.kind), cli::visible(p),
                       cli::visible(fmt::format("{}", fmt::join(n.why, "; "))));
  }
  return out;
}

nlohmann::json result_json(const SearchRequest& req, const SearchResult& res) {
  nlohmann::json j = summary_json(req, res);
  auto hits = nlohmann::json::array();
  for (const Hit& h : res.hits) hits.push_back(hit_json(h));
  j["hits"] = std::move(hits);
  if (!res.beyond.empty()) {
    auto beyond = nlohmann::json::array();
    for (const Hit& h : res.beyond) beyond.push_back(hit_json(h));
    j["beyond"] = std::move(beyond);
  }
  if (req.explain) j["explain"] = explain_json(res);
  return j;
}

std::vector<LineMatch> line_matches(const Hit& h, Analyzer& analyzer) {
  std::vector<LineMatch> out;
  std::string text;
  try {
    text = read_hit_file(h);
  } catch (const Error&) {
    return out;  // moved since indexing, a link out of the vault, a FIFO: nothing to point at
  }
  const SnippetGenerator matcher(analyzer, h.terms);
  std::size_t n = 1;  // the number of the line at `at`
  for (std::size_t at = 0; at < text.size();) {
    // The lines a filled line wraps a word across (line_wrap) are matched as one;
    // a match is listed on the line it starts on.
    std::size_t end = std::min(text.find('\n', at), text.size());
    while (end < text.size() && line_wrap(text, end)) end = std::min(text.find('\n', end + 1), text.size());
    const std::string_view lines = std::string_view(text).substr(at, end - at);
    // The line of the next match: where it begins in lines, where it ends, its number.
    std::size_t line = 0, line_end = std::min(lines.find('\n'), lines.size()), line_n = n;
    for (const auto& [b, e] : matcher.match_spans(lines)) {
      while (line_end < b)
        line = line_end + 1, line_end = std::min(lines.find('\n', line), lines.size()), ++line_n;
      if (out.empty() || out.back().line != line_n)
        out.push_back({line_n, std::string(lines.substr(line, line_end - line)), {}});
      out.back().spans.emplace_back(b - line, std::min(e, line_end) - line);
    }
    n += static_cast<std::size_t>(std::count(lines.begin(), lines.end(), '\n')) + 1;
    at = end + 1;
  }
  return out;
}

std::string fit_lines(std::string_view text, std::size_t width) {
  std::string out;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (line_width(line) <= width) {
      out += line;
    } else {
      // Colour codes are kept (they take no columns); text stops where "…" still fits.
      std::size_t used = 0;
      bool colored = false, full = false;
      for (std::size_t i = 0; i < line.size() && !full;) {
        if (line[i] == '\x1b') {
          const std::size_t m = line.find('m', i);
          const std::size_t end = m == std::string_view::npos ? line.size() : m + 1;
          out += line.substr(i, end - i);
          colored = true;
          i = end;
          continue;
        }
        std::size_t run_end = line.find('\x1b', i);
        if (run_end == std::string_view::npos) run_end = line.size();
        const std::string_view run = line.substr(i, run_end - i);
        const std::size_t keep = prefix_fitting(run, width - 1 - std::min(used, width - 1));
        out += run.substr(0, keep);
        used += unicode::display_width(run.substr(0, keep));
        full = keep < run.size();
        i = full ? line.size() : run_end;
      }
      out += ELLIPSIS;
      if (colored) out += HL_OFF_COLOR;
    }
    if (nl != std::string_view::npos) out += '\n';
  }
  return out;
}

void Printer::facet_list(std::string& out, const FacetCounts& facet) {
  for (const auto& v : facet.values) out += fmt::format("{}\t{}\n", cli::visible(v.value), v.count);
}

std::unique_ptr<Printer> make_printer(OutputFormat format, const PrintOptions& options, Analyzer& analyzer) {
  switch (format) {
    case OutputFormat::Json:
      return std::make_unique<JsonPrinter>();
    case OutputFormat::JsonLines:
      return std::make_unique<JsonLinesPrinter>();
    case OutputFormat::Paths:
      return std::make_unique<PathsPrinter>(options.null_separated);
    case OutputFormat::Vimgrep:
      return std::make_unique<VimgrepPrinter>(analyzer, options.color, options.null_separated);
    case OutputFormat::Text:
      break;
  }
  return std::make_unique<TextPrinter>(options);
}

void print_tokens(std::string& out, const std::string& text, const std::vector<Token>& tokens,
                  const Dictionary& dictionary, Analyzer& analyzer) {
  out += fmt::format("{:>8}  {:<11}  {:<4}  {}\n", "position", "bytes", "kind", "token (original)");
  for (const Token& t : tokens) {
    out += fmt::format("{:>8}  {:<11}  {:<4}  {} ({})", t.position,
                       fmt::format("{}-{}", t.byte_begin, t.byte_end),
                       t.kind == TokenKind::Word   ? "word"
                       : t.kind == TokenKind::Stem ? "stem"
                                                   : "part",
                       t.text, text.substr(t.byte_begin, t.byte_end - t.byte_begin));
    // A word's readings and other spellings (IPAdic), as the bridge tier uses them.
    if (t.kind == TokenKind::Word) {
      if (const auto r = dictionary.readings(t.text); !r.empty())
        out += fmt::format("  read {}", fmt::join(r, " "));
      if (const auto s = dictionary.spellings(t.text, analyzer); !s.empty())
        out += fmt::format("  also {}", fmt::join(s, " "));
    }
    out += '\n';
  }
}

}  // namespace sagasu
