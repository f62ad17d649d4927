#include "printer.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace sagasu {
namespace {

constexpr const char* HL_ON_COLOR = "\x1b[1;31m";
constexpr const char* HL_OFF_COLOR = "\x1b[0m";
constexpr const char* HL_ON_PLAIN = "**";
constexpr const char* HL_OFF_PLAIN = "**";

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
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
  jh["venues"] = h.venues;
  jh["years"] = h.years;
  jh["persons"] = h.persons;
  jh["orgs"] = h.orgs;
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

}  // namespace

void print_explain(std::string& out, const SearchResult& res) {
  out += "query pieces:\n";
  for (const auto& c : res.chunks) {
    std::string stems;
    for (const auto& s : c.stems)
      if (!s.empty()) stems += (stems.empty() ? "" : " ") + s;
    out += fmt::format("  {}{}{}\n", c.phrase ? "\"" : "", c.text, c.phrase ? "\"" : "");
    out += fmt::format("    word tier:      {}{}\n", join(c.words, " + "),
                       c.words.size() > 1 ? (c.phrase ? "  (adjacent)" : "  (adjacent; scattered ranks lower)") : "");
    if (!stems.empty()) out += fmt::format("    stems:          {}\n", stems);
    if (!c.synonyms.empty()) out += fmt::format("    other names:    {}\n", join(c.synonyms, " / "));
    if (!c.substring.empty())
      out += fmt::format("    substring tier: {}  (grams {})\n", c.substring, join(c.grams, " "));
  }
  out += fmt::format("xapian query: {}\n\n", res.query_description);
}

void print_text(std::string& out, const SearchRequest& req, const SearchResult& res, const TextStyle& style) {
  const char* bold = style.color ? "\x1b[1m" : "";
  const char* dim = style.color ? "\x1b[2m" : "";
  const char* green = style.color ? "\x1b[32m" : "";
  const char* reset = style.color ? "\x1b[0m" : "";
  for (const Hit& h : res.hits) {
    std::string meta = h.kind;
    if (!h.years.empty() || !h.venues.empty()) {
      meta += " · ";
      meta += join(h.years, ",");
      if (!h.years.empty() && !h.venues.empty()) meta += " ";
      meta += join(h.venues, ",");
    }
    if (h.tier != Tier::Word) meta += fmt::format(" · {} match", to_string(h.tier));
    out += fmt::format("{:>2}. {}{}{}  [{}]\n", h.rank, bold, h.title, reset, meta);
    out += fmt::format("    {}{}{}\n", green, h.path, reset);
    if (!h.score_parts.empty()) {
      std::string parts;
      for (const auto& [name, w] : h.score_parts) parts += fmt::format("{}{} {:.4f}", parts.empty() ? "" : ", ", name, w);
      out += fmt::format("    {}score {:.4f} = {}; tier {}{}\n", dim, h.score, parts, to_string(h.tier), reset);
    }
    for (const Fragment& f : h.fragments) {
      out += fmt::format("    {}{}{}", f.cut_before ? "…" : "", highlight(f, style.color), f.cut_after ? "…" : "");
      if (!f.sources.empty()) out += fmt::format("  {}← {}{}", dim, join(f.sources, " / "), reset);
      out += '\n';
    }
  }
  if (!res.hits.empty()) out += '\n';
  const std::size_t first = res.hits.empty() ? 0 : req.offset + 1;
  out += fmt::format("{} {} (showing {}–{})\n", res.total, res.total == 1 ? "hit" : "hits", first,
                     req.offset + res.hits.size());
  for (const auto& f : res.facets) {
    if (f.values.empty()) continue;
    std::string line;
    std::size_t shown = 0;
    for (const auto& v : f.values) {
      if (style.facet_limit > 0 && shown++ == style.facet_limit) {
        line += fmt::format("  … {} more", f.values.size() - style.facet_limit);
        break;
      }
      // A selected value is marked; a filtered facet shows the other values' counts too.
      line += fmt::format("{}{}{}{} ({}){}", line.empty() ? "" : "  ", v.selected ? bold : "", v.value,
                          v.selected ? "*" : "", v.count, v.selected ? reset : "");
    }
    out += fmt::format("{}{:<7}{} {}\n", dim, f.name + ":", reset, line);
  }
  for (const auto& f : res.facets)
    if (f.sideways) {
      out += fmt::format("{}(* = filter; counts of a filtered facet are without its own filter){}\n", dim, reset);
      break;
    }
}

void print_json(std::string& out, const SearchRequest& req, const SearchResult& res) {
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
  add_partial_json(j, res);
  if (req.explain) j["explain"] = explain_json(res);
  out += j.dump();
  out += '\n';
}

void print_jsonl(std::string& out, const SearchRequest& req, const SearchResult& res) {
  for (const Hit& h : res.hits) {
    nlohmann::json jh = hit_json(h);
    jh["type"] = "hit";
    jh["version"] = JSON_VERSION;
    out += jh.dump();
    out += '\n';
  }
  nlohmann::json summary{{"type", "summary"}, {"version", JSON_VERSION}, {"query", req.query},
                         {"filters", req.filters}, {"total", res.total}, {"offset", req.offset},
                         {"limit", req.limit}, {"notices", res.notices}, {"suggestions", res.suggestions}};
  add_facets_json(summary, res);
  add_partial_json(summary, res);
  out += summary.dump();
  out += '\n';
}

std::string shown_path(const Hit& h, const std::filesystem::path& cwd) {
  if (h.file.empty()) return h.path;
  const std::string rel = std::filesystem::path(h.file).lexically_relative(cwd).generic_string();
  return rel.empty() ? h.file : rel;
}

void print_paths(std::string& out, const SearchResult& res, bool null_separated) {
  std::error_code ec;
  const auto cwd = std::filesystem::current_path(ec);
  for (const Hit& h : res.hits) {
    const std::string p = shown_path(h, cwd);
    if (null_separated) {
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

void print_vimgrep(std::string& out, Analyzer& analyzer, const SearchResult& res) {
  std::error_code ec;
  const auto cwd = std::filesystem::current_path(ec);
  for (const Hit& h : res.hits) {
    std::ifstream in(h.file, std::ios::binary);
    if (!in) continue;  // the note moved since indexing: nothing to point at
    const std::string p = shown_path(h, cwd);
    const SnippetGenerator matcher(analyzer, h.terms);
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
      for (const auto& [b, e] : matcher.match_spans(line))
        out += fmt::format("{}:{}:{}:{}\n", p, n, b + 1, line);
    }
  }
}

void print_list(std::string& out, const FacetCounts& facet, bool json) {
  if (json) {
    auto values = nlohmann::json::array();
    for (const auto& v : facet.values) values.push_back({{"value", v.value}, {"count", v.count}});
    out += nlohmann::json{{"version", JSON_VERSION}, {"facet", facet.name}, {"values", values}}.dump();
    out += '\n';
    return;
  }
  for (const auto& v : facet.values) out += fmt::format("{}\t{}\n", v.value, v.count);
}

void print_tokens(std::string& out, const std::string& text, const std::vector<Token>& tokens) {
  out += fmt::format("{:>8}  {:<11}  {:<4}  {}\n", "position", "bytes", "kind", "token (original)");
  for (const Token& t : tokens)
    out += fmt::format("{:>8}  {:<11}  {:<4}  {} ({})\n", t.position, fmt::format("{}-{}", t.byte_begin, t.byte_end),
                       t.kind == TokenKind::Word ? "word" : "stem", t.text,
                       text.substr(t.byte_begin, t.byte_end - t.byte_begin));
}

}  // namespace sagasu
