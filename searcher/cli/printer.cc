#include "printer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "sagasu/schema.h"

namespace sagasu {
namespace {

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

nlohmann::json explain_json(const SearchResult& res) {
  nlohmann::json chunks = nlohmann::json::array();
  for (const auto& c : res.chunks)
    chunks.push_back({{"text", c.text},
                      {"phrase", c.phrase},
                      {"words", c.words},
                      {"stems", c.stems},
                      {"synonyms", c.synonyms},
                      {"substring", c.substring},
                      {"grams", c.grams}});
  return {{"chunks", chunks}, {"xapian_query", res.query_description}};
}

// The --explain preamble: the query's pieces in every tier and the Xapian query.
void text_explain(std::string& out, const SearchResult& res) {
  out += "query pieces:\n";
  for (const auto& c : res.chunks) {
    std::string stems;
    for (const auto& s : c.stems)
      if (!s.empty()) stems += (stems.empty() ? "" : " ") + s;
    out += fmt::format("  {}{}{}\n", c.phrase ? "\"" : "", c.text, c.phrase ? "\"" : "");
    out += fmt::format(
        "    word tier:      {}{}\n", join(c.words, " + "),
        c.words.size() > 1 ? (c.phrase ? "  (adjacent)" : "  (adjacent; scattered ranks lower)") : "");
    if (!stems.empty()) out += fmt::format("    stems:          {}\n", stems);
    if (!c.synonyms.empty()) out += fmt::format("    other names:    {}\n", join(c.synonyms, " / "));
    if (!c.substring.empty())
      out += fmt::format("    substring tier: {}  (grams {})\n", c.substring, join(c.grams, " "));
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
        m_color(o.color),
        m_bold(o.color ? "\x1b[1m" : ""),
        m_dim(o.color ? "\x1b[2m" : ""),
        m_green(o.color ? "\x1b[32m" : ""),
        m_reset(o.color ? "\x1b[0m" : "") {}

  void result(std::string& out, const SearchRequest& req, const SearchResult& res) override {
    if (req.explain) text_explain(out, res);
    for (const Hit& h : res.hits) hit(out, h);
    if (!res.hits.empty()) out += '\n';
    const std::size_t first = res.hits.empty() ? 0 : req.offset + 1;
    out += fmt::format("{} {} (showing {}–{}){}\n", res.total, res.total == 1 ? "hit" : "hits", first,
                       req.offset + res.hits.size(),
                       res.loose_more ? fmt::format("; {} more with the words apart (--loose lists them)", res.loose_more)
                                      : "");
    for (const auto& f : res.facets) facet(out, f);
    for (const auto& f : res.facets)
      if (f.sideways) {
        out += fmt::format("{}(* = filter; counts of a filtered facet are without its own filter){}\n", m_dim,
                           m_reset);
        break;
      }
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
    out += fmt::format("{:>2}. {}{}{}  [{}]\n", h.rank, m_bold, h.title, m_reset, meta);
    out += fmt::format("    {}{}{}\n", m_green, h.path, m_reset);
    if (!h.score_parts.empty()) {
      std::string parts;
      for (const auto& [name, w] : h.score_parts)
        parts += fmt::format("{}{} {:.4f}", parts.empty() ? "" : ", ", name, w);
      out += fmt::format("    {}score {:.4f} = {}; tier {}{}\n", m_dim, h.score, parts, to_string(h.tier),
                         m_reset);
    }
    for (const Fragment& f : h.fragments) {
      out +=
          fmt::format("    {}{}{}", f.cut_before ? "…" : "", highlight(f, m_color), f.cut_after ? "…" : "");
      if (!f.sources.empty()) out += fmt::format("  {}← {}{}", m_dim, join(f.sources, " / "), m_reset);
      out += '\n';
    }
  }

  void facet(std::string& out, const FacetCounts& f) const {
    if (f.values.empty()) return;
    std::string line;
    std::size_t shown = 0;
    for (const auto& v : f.values) {
      if (m_facet_limit > 0 && shown++ == m_facet_limit) {
        line += fmt::format("  … {} more", f.values.size() - m_facet_limit);
        break;
      }
      // A selected value is marked; a filtered facet shows the other values' counts too.
      line += fmt::format("{}{}{}{} ({}){}", line.empty() ? "" : "  ", v.selected ? m_bold : "", v.value,
                          v.selected ? "*" : "", v.count, v.selected ? m_reset : "");
    }
    out += fmt::format("{}{:<7}{} {}\n", m_dim, f.name + ":", m_reset, line);
  }

  std::size_t m_facet_limit;
  bool m_color;
  const char *m_bold, *m_dim, *m_green, *m_reset;
};

// The documented JSON object (README "JSON output"), one line.
class JsonPrinter : public Printer {
 public:
  void result(std::string& out, const SearchRequest& req, const SearchResult& res) override {
    nlohmann::json j;
    j["version"] = JSON_VERSION;
    j["query"] = req.query;
    j["filters"] = req.filters;
    j["total"] = res.total;
    j["offset"] = req.offset;
    j["limit"] = req.limit;
    auto hits = nlohmann::json::array();
    for (const Hit& h : res.hits) hits.push_back(hit_json(h));
    j["hits"] = std::move(hits);
    add_facets_json(j, res);
    j["notices"] = res.notices;
    j["suggestions"] = res.suggestions;
    j["correction"] = res.correction;
    j["loose_more"] = res.loose_more;
    add_partial_json(j, res);
    if (req.explain) j["explain"] = explain_json(res);
    out += j.dump();
    out += '\n';
  }

  void facet_list(std::string& out, const FacetCounts& facet) override {
    auto values = nlohmann::json::array();
    for (const auto& v : facet.values) values.push_back({{"value", v.value}, {"count", v.count}});
    out += nlohmann::json{{"version", JSON_VERSION}, {"facet", facet.name}, {"values", values}}.dump();
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
      out += jh.dump();
      out += '\n';
    }
    nlohmann::json summary{
        {"type", "summary"},      {"version", JSON_VERSION}, {"query", req.query},
        {"filters", req.filters}, {"total", res.total},      {"offset", req.offset},
        {"limit", req.limit},     {"notices", res.notices},  {"suggestions", res.suggestions}};
    add_facets_json(summary, res);
    add_partial_json(summary, res);
    out += summary.dump();
    out += '\n';
  }
};

// One path per hit, relative to the current folder: newline-terminated with
// blanks and quotes backslash-escaped (for xargs), or NUL-terminated and raw.
class PathsPrinter : public Printer {
 public:
  explicit PathsPrinter(bool null_separated) : m_null(null_separated) {}

  void result(std::string& out, const SearchRequest&, const SearchResult& res) override {
    const auto cwd = current_folder();
    for (const Hit& h : res.hits) {
      const std::string p = shown_path(h, cwd);
      if (m_null) {
        out += p;
        out += '\0';
        continue;
      }
      // xargs splits at blanks and reads quotes: escape them so `| xargs cmd` gets whole paths.
      for (char c : p) {
        if (c == ' ' || c == '\t' || c == '\'' || c == '"' || c == '\\') out += '\\';
        out += c;
      }
      out += '\n';
    }
  }

 private:
  bool m_null;
};

// path:line:column:text for each match in each hit's file (editors, fzf).
class VimgrepPrinter : public Printer {
 public:
  explicit VimgrepPrinter(Analyzer& analyzer) : m_analyzer(analyzer) {}

  void result(std::string& out, const SearchRequest&, const SearchResult& res) override {
    const auto cwd = current_folder();
    for (const Hit& h : res.hits) {
      std::ifstream in(h.file, std::ios::binary);
      if (!in) continue;  // the note moved since indexing: nothing to point at
      const std::string p = shown_path(h, cwd);
      const SnippetGenerator matcher(m_analyzer, h.terms);
      std::string line;
      for (std::size_t n = 1; std::getline(in, line); ++n)
        for (const auto& [b, e] : matcher.match_spans(line))
          out += fmt::format("{}:{}:{}:{}\n", p, n, b + 1, line);
    }
  }

 private:
  Analyzer& m_analyzer;
};

}  // namespace

void Printer::facet_list(std::string& out, const FacetCounts& facet) {
  for (const auto& v : facet.values) out += fmt::format("{}\t{}\n", v.value, v.count);
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
      return std::make_unique<VimgrepPrinter>(analyzer);
    case OutputFormat::Text:
      break;
  }
  return std::make_unique<TextPrinter>(options);
}

void print_tokens(std::string& out, const std::string& text, const std::vector<Token>& tokens) {
  out += fmt::format("{:>8}  {:<11}  {:<4}  {}\n", "position", "bytes", "kind", "token (original)");
  for (const Token& t : tokens)
    out += fmt::format("{:>8}  {:<11}  {:<4}  {} ({})\n", t.position,
                       fmt::format("{}-{}", t.byte_begin, t.byte_end),
                       t.kind == TokenKind::Word ? "word" : "stem", t.text,
                       text.substr(t.byte_begin, t.byte_end - t.byte_begin));
}

}  // namespace sagasu
