#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "sagasu/error.h"
#include "sagasu/note.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {

std::string normalize_venue(std::string_view venue) {
  std::string v(venue);
  // Strip a trailing year: digits, optionally after an apostrophe or space.
  std::size_t end = v.size();
  while (end > 0 && std::isdigit(static_cast<unsigned char>(v[end - 1]))) --end;
  if (end == v.size()) return v;
  const std::size_t digits = v.size() - end;
  if (digits != 2 && digits != 4) return v;
  std::size_t cut = end;
  while (cut > 0 && (v[cut - 1] == '\'' || v[cut - 1] == ' ' || v[cut - 1] == '-')) --cut;
  // What remains must still look like a venue name (two or more letters).
  std::size_t letters = 0;
  for (std::size_t i = 0; i < cut; ++i)
    if (std::isalpha(static_cast<unsigned char>(v[i]))) ++letters;
  if (letters < 2) return v;
  return v.substr(0, cut);
}

std::optional<Citation> parse_citation(std::string_view name) {
  if (!name.empty() && name.front() == '@') name.remove_prefix(1);
  if (name.size() < 9) return std::nullopt;
  for (int i = 0; i < 4; ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return std::nullopt;
  if (name.substr(4, 2) != "__") return std::nullopt;
  const auto sep = name.find("__", 6);
  if (sep == std::string_view::npos || sep == 6) return std::nullopt;
  Citation c;
  c.key = std::string(name);
  c.year = std::stoi(std::string(name.substr(0, 4)));
  c.venue_raw = std::string(name.substr(6, sep - 6));
  c.venue = normalize_venue(c.venue_raw);
  c.title = std::string(name.substr(sep + 2));
  return c;
}

std::vector<std::string> Note::hidden_link_targets() const {
  std::vector<std::string> out;
  for (const Link& l : links)
    if (!l.embed && !l.display.empty() && !l.target.empty() && l.target.front() != '@' &&
        l.target != l.display && std::find(out.begin(), out.end(), l.target) == out.end())
      out.push_back(l.target);
  return out;
}

std::string_view to_string(PropertySource source) {
  switch (source) {
    case PropertySource::FrontMatter:
      return "front matter";
    case PropertySource::Table:
      return "table";
    case PropertySource::InlineField:
      return "inline field";
  }
  return "front matter";
}

std::vector<std::string> Note::property(std::string_view key) const {
  std::vector<std::string> out;
  const std::string folded = unicode::fold_name(key);
  for (const auto& p : properties)
    if (unicode::fold_name(p.key) == folded) out.insert(out.end(), p.values.begin(), p.values.end());
  return out;
}

bool is_attachment(std::string_view target) {
  auto dot = target.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string ext = unicode::nfkc_casefold(target.substr(dot + 1));
  static const char* const exts[] = {"png", "jpg", "jpeg", "gif",  "svg", "webp", "bmp",       "pdf",
                                     "mp3", "mp4", "wav",  "webm", "mov", "ogg",  "excalidraw"};
  return std::any_of(std::begin(exts), std::end(exts), [&](const char* e) { return ext == e; });
}

std::string Note::display_title() const {
  if (!fm_title.empty()) return fm_title;
  if (source) return source->title;
  return heading_title.empty() ? title : heading_title;
}

std::string_view note_title(std::string_view path) {
  std::string_view name = path.substr(path.rfind('/') == std::string_view::npos ? 0 : path.rfind('/') + 1);
  if (name.size() > 3 && strings::ends_with(name, ".md")) name.remove_suffix(3);
  return name;
}

namespace {

using strings::ends_with;
using strings::starts_with;
using strings::trim;

// A list label: short, no links or brackets, no sentence punctuation, and
// spaces only in Latin labels ("Related people").
// A title that names nothing: a template's placeholder (gettext's PO header
// "# SOME DESCRIPTIVE TITLE.", an editor's "Untitled", 無題). The first real
// heading or the file name says more.
bool placeholder_title(std::string_view title) {
  std::string t(trim(title));
  while (!t.empty() && t.back() == '.') t.pop_back();
  std::transform(t.begin(), t.end(), t.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
  return t == "some descriptive title" || t == "untitled" || t == "無題";
}

bool is_label(std::string_view label) {
  label = trim(label);
  if (label.empty() || unicode::length(label) > 30) return false;
  for (std::string_view bad : {"[[", "(", "\xE3\x80\x82", "\xE3\x80\x81", "\xEF\xBC\x88"})
    if (label.find(bad) != std::string_view::npos) return false;
  const bool ascii =
      std::all_of(label.begin(), label.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  return ascii || label.find(' ') == std::string_view::npos;
}

// Steps over a "[[" or "]]" at s[i] (i at its second bracket after), keeping
// the depth of wikilinks: true when s[i] is outside every link and no bracket pair.
bool outside_links(std::string_view s, std::size_t& i, int& depth) {
  if (s.compare(i, 2, "[[") == 0 || s.compare(i, 2, "]]") == 0) {
    depth = s[i] == '[' ? depth + 1 : std::max(0, depth - 1);
    ++i;
    return false;
  }
  return depth == 0;
}

// Splits a line at the boundaries that a flattened note lost: ` ## Heading`
// and ` - Label: items`, never inside [[...]].
std::vector<std::string_view> unflatten(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i + 1 < line.size(); ++i) {
    if (!outside_links(line, i, depth) || line[i] != ' ' || i == 0) continue;
    std::size_t j = i + 1;
    bool split = false;
    if (line[j] == '#') {
      std::size_t h = j;
      while (h < line.size() && line[h] == '#') ++h;
      split = h - j >= 2 && h - j <= 6 && h < line.size() && line[h] == ' ';
    } else if (line[j] == '-' && j + 1 < line.size() && line[j + 1] == ' ') {
      // A label: up to 30 characters without brackets, then ':' or '：'.
      std::size_t k = j + 2;
      std::size_t chars = 0;
      while (k < line.size() && chars <= 30) {
        const char c = line[k];
        if (c == ':' || starts_with(line.substr(k), "\xEF\xBC\x9A")) break;
        if (c == '[' || c == '(' || c == ']' || c == ' ' || c == '\n') {
          k = line.size();
          break;
        }
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++chars;
        ++k;
      }
      split = k < line.size() && chars > 0 && chars <= 30;
    }
    if (split) {
      out.push_back(line.substr(start, i - start));
      start = j;
    }
  }
  out.push_back(line.substr(start));
  return out;
}

void add_citation(Note& note, const Citation& c) {
  if (std::find(note.citations.begin(), note.citations.end(), c) == note.citations.end())
    note.citations.push_back(c);
}

void add_tag(Note& note, std::string_view tag) {
  std::string t(tag);
  if (std::find(note.tags.begin(), note.tags.end(), t) == note.tags.end()) note.tags.push_back(std::move(t));
}

// Adds what the file says but the text does not show to Note::unshown, a line of its own.
void add_unshown(Note& note, std::string_view what) {
  what = trim(what);
  if (what.empty()) return;
  if (!note.unshown.empty()) note.unshown += '\n';
  for (const char c : what) note.unshown += c == '\n' || c == '\r' ? ' ' : c;
}

// Renders one line of Markdown into the note's text (markup removed, link
// display text kept, runs of blanks as one space) and records its links,
// citations and #hashtags. Each markup step reads what starts at m_i and
// returns false, consuming nothing, when the line does not hold that markup there.
class LineRenderer {
 public:
  LineRenderer(Note& note, std::string_view line) : m_note(note), m_out(note.text), m_line(line) {}

  void render() {
    if (!m_out.empty() && m_out.back() != '\n') m_out += '\n';
    m_line_start = m_out.size();
    while (m_i < m_line.size()) {
      if (blank() || code_span() || wikilink() || comment() || html_tag() || emphasis() || markdown_link() ||
          hashtag() || no_break_space())
        continue;
      copy_character();
    }
    if (m_out.size() == m_line_start && m_line_start > 0) m_out.pop_back();  // empty line: drop its '\n'
  }

 private:
  std::string_view rest() const { return m_line.substr(m_i); }

  void put_space() {
    if (m_out.size() > m_line_start) m_space = true;
  }

  void emit(std::string_view s) {
    if (s.empty()) return;
    if (m_space && m_out.size() > m_line_start) m_out += ' ';
    m_space = false;
    m_out.append(s);
  }

  // A search for a closing bracket that failed from some point fails from
  // every later point too: remembering that keeps a line of unclosed
  // brackets linear, not quadratic.
  std::size_t find_from(std::string_view what, std::size_t from, std::size_t& fails_from) const {
    if (fails_from != std::string_view::npos && from >= fails_from) return std::string_view::npos;
    const std::size_t at = m_line.find(what, from);
    if (at == std::string_view::npos) fails_from = std::min(fails_from, from);
    return at;
  }

  bool blank() {
    const char c = m_line[m_i];
    if (c != ' ' && c != '\t' && c != '\r') return false;
    put_space();
    ++m_i;
    return true;
  }

  // [[target]], ![[embed]]
  bool wikilink() {
    if (!starts_with(rest(), "![[") && !starts_with(rest(), "[[")) return false;
    const bool embed = m_line[m_i] == '!';
    const std::size_t open = m_i + (embed ? 3 : 2);
    const std::size_t close = find_from("]]", open, m_no_double);
    if (close == std::string_view::npos) return false;
    render_link(m_line.substr(open, close - open), embed);
    m_i = close + 2;
    return true;
  }

  // <!-- comment -->, to the end of the line when it is not closed there: not shown, but found.
  bool comment() {
    if (!starts_with(rest(), "<!--")) return false;
    const auto end = m_line.find("-->", m_i + 4);
    add_unshown(m_note, m_line.substr(m_i + 4, end == std::string_view::npos ? end : end - m_i - 4));
    m_i = end == std::string_view::npos ? m_line.size() : end + 3;
    return true;
  }

  // An HTML tag with attributes (CommonMark's open tag: <iframe src="…"
  // allow="autoplay; gyroscope" allowfullscreen>) and a closing tag: not
  // shown, but found. A video embed's attribute words are no topic of the
  // note (they made every note embedding a video related to every other).
  // Vec<T>, <b>, <https://…> have no attributes and stay text.
  bool html_tag() {
    const auto is_letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
    const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
    const auto is_blank = [](char c) { return c == ' ' || c == '\t'; };
    const std::string_view s = rest();
    if (s.size() < 4 || s[0] != '<') return false;
    if (s[1] == '/') {  // a closing tag, </iframe>
      std::size_t i = 2;
      while (i < s.size() && (is_letter(s[i]) || (i > 2 && (is_digit(s[i]) || s[i] == '-')))) ++i;
      const std::size_t name_end = i;
      while (i < s.size() && is_blank(s[i])) ++i;
      if (name_end == 2 || i >= s.size() || s[i] != '>') return false;
      add_unshown(m_note, s.substr(2, name_end - 2));
      m_i += i + 1;
      return true;
    }
    if (!is_letter(s[1])) return false;
    std::size_t i = 2;
    while (i < s.size() && (is_letter(s[i]) || is_digit(s[i]) || s[i] == '-')) ++i;
    bool attributes = false;
    while (i < s.size() && is_blank(s[i])) {
      while (i < s.size() && is_blank(s[i])) ++i;
      // attribute name: [A-Za-z_:][A-Za-z0-9_.:-]*
      if (i >= s.size() || !(is_letter(s[i]) || s[i] == '_' || s[i] == ':')) break;
      while (i < s.size() &&
             (is_letter(s[i]) || is_digit(s[i]) || s[i] == '_' || s[i] == '.' || s[i] == ':' || s[i] == '-'))
        ++i;
      attributes = true;
      std::size_t j = i;
      while (j < s.size() && is_blank(s[j])) ++j;
      if (j >= s.size() || s[j] != '=') continue;
      ++j;
      while (j < s.size() && is_blank(s[j])) ++j;
      if (j >= s.size()) return false;
      if (s[j] == '"' || s[j] == '\'') {
        const bool dq = s[j] == '"';
        const std::size_t close = find_from(dq ? "\"" : "'", m_i + j + 1, dq ? m_no_dquote : m_no_squote);
        if (close == std::string_view::npos) return false;
        i = close - m_i + 1;
      } else {
        const std::size_t from = j;
        while (j < s.size() && !is_blank(s[j]) &&
               std::string_view("\"'=<>`").find(s[j]) == std::string_view::npos)
          ++j;
        if (j == from) return false;
        i = j;
      }
    }
    while (i < s.size() && is_blank(s[i])) ++i;
    if (i < s.size() && s[i] == '/') ++i;
    if (!attributes || i >= s.size() || s[i] != '>') return false;
    add_unshown(m_note, s.substr(1, i - 1));
    m_i += i + 1;
    return true;
  }

  // `code`, ``a ` b``: the text as it is, with no link, tag or mark read in
  // it ([[x]] in code is no link). A run of backticks that no run of the same
  // length closes on the line is a mark: it goes, and the text after is read.
  bool code_span() {
    if (m_line[m_i] != '`') return false;
    std::size_t n = 0;
    while (m_i + n < m_line.size() && m_line[m_i + n] == '`') ++n;
    const std::size_t open = m_i + n;
    // The line's runs of backticks, found once (a line of them stays linear).
    if (!m_ticks) {
      m_ticks.emplace();
      for (std::size_t at = m_line.find('`'); at != std::string_view::npos; at = m_line.find('`', at)) {
        std::size_t run = 0;
        while (at + run < m_line.size() && m_line[at + run] == '`') ++run;
        (*m_ticks)[run].push_back(at);
        at += run;
      }
    }
    std::size_t close = std::string_view::npos;
    if (const auto runs = m_ticks->find(n); runs != m_ticks->end()) {
      const auto next = std::lower_bound(runs->second.begin(), runs->second.end(), open);
      if (next != runs->second.end()) close = *next;
    }
    if (close == std::string_view::npos) {
      m_i = open;
      return true;
    }
    for (m_i = open; m_i < close;)
      if (!blank()) copy_character();
    m_i = close + n;
    return true;
  }

  // **bold**, ~~struck~~: the marks go, the text stays.
  bool emphasis() {
    if (!starts_with(rest(), "**") && !starts_with(rest(), "~~")) return false;
    m_i += 2;
    return true;
  }

  // An address of another note of the vault: relative, a Markdown file.
  static bool links_a_note(std::string_view address) {
    address = address.substr(0, address.find_first_of("# "));
    return address.find("://") == std::string_view::npos && address.size() > 3 &&
           address.substr(address.size() - 3) == ".md";
  }

  // [text](url) → text; ![alt](url) → alt
  bool markdown_link() {
    const bool image = starts_with(rest(), "![");
    if (m_line[m_i] != '[' && !image) return false;
    const std::size_t text_begin = m_i + (image ? 2 : 1);
    const std::size_t close = find_from("]", text_begin, m_no_square);
    if (close == std::string_view::npos || close + 1 >= m_line.size() || m_line[close + 1] != '(')
      return false;
    const std::size_t paren = find_from(")", close + 2, m_no_paren);
    if (paren == std::string_view::npos) return false;
    const std::string_view shown = trim(m_line.substr(text_begin, close - text_begin));
    emit(shown);
    const std::string_view address = m_line.substr(close + 2, paren - close - 2);
    if (!image && !shown.empty() && links_a_note(address))
      m_note.link_text.emplace_back(m_out.size() - shown.size(), m_out.size());
    add_unshown(m_note, address);  // the address
    m_i = paren + 1;
    return true;
  }

  // #hashtag: kept as a tag and as text (a number such as #1 is neither).
  bool hashtag() {
    const std::size_t i = m_i;
    if (m_line[i] != '#' || (i > 0 && m_line[i - 1] != ' ') || i + 1 >= m_line.size() ||
        m_line[i + 1] == ' ' || m_line[i + 1] == '#')
      return false;
    std::size_t end = i + 1;
    while (end < m_line.size() && m_line[end] != ' ' && m_line[end] != '\t' && m_line[end] != ',' &&
           m_line[end] != '.' && m_line[end] != ')' && !starts_with(m_line.substr(end), "\xE3\x80"))
      ++end;
    const std::string_view tag = m_line.substr(i + 1, end - i - 1);
    if (tag.empty() || std::all_of(tag.begin(), tag.end(),
                                   [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
      return false;
    add_tag(m_note, tag);
    emit(tag);
    m_i = end;
    return true;
  }

  // A no-break space counts as white space.
  bool no_break_space() {
    if (!starts_with(rest(), "\xC2\xA0")) return false;
    put_space();
    m_i += 2;
    return true;
  }

  // One UTF-8 sequence, as it is.
  void copy_character() {
    std::size_t len = 1;
    while (m_i + len < m_line.size() && (static_cast<unsigned char>(m_line[m_i + len]) & 0xC0) == 0x80) ++len;
    emit(m_line.substr(m_i, len));
    m_i += len;
  }

  void render_link(std::string_view inner, bool embed) {
    Link link;
    link.embed = embed;
    const auto bar = inner.find('|');
    std::string_view target = inner.substr(0, bar);
    if (bar != std::string_view::npos) link.display = std::string(trim(inner.substr(bar + 1)));
    const auto hash = target.find('#');
    if (hash != std::string_view::npos) {
      link.heading = std::string(trim(target.substr(hash + 1)));
      target = target.substr(0, hash);
    }
    link.target = std::string(trim(target));
    std::string rendered = link.display;
    if (!link.target.empty()) add_unshown(m_note, link.heading);
    if (embed && is_attachment(link.target)) {
      rendered.clear();
      add_unshown(m_note, link.target);
    } else if (auto cit = parse_citation(link.target); cit && !link.target.empty() && link.target[0] == '@') {
      add_citation(m_note, *cit);
      if (rendered.empty()) rendered = fmt::format("{} ({} {})", cit->title, cit->venue, cit->year);
    } else if (rendered.empty()) {
      rendered = link.target.empty() ? link.heading : link.target;
    }
    emit(rendered);
    link.text_end = m_out.size();
    link.text_begin = m_out.size() - (rendered.empty() ? 0 : rendered.size());
    if (!link.target.empty() || !link.heading.empty()) m_note.links.push_back(std::move(link));
  }

  Note& m_note;
  std::string& m_out;
  const std::string_view m_line;
  std::size_t m_line_start = 0;  // where this line's text begins in m_out
  std::size_t m_i = 0;           // the next byte of m_line to read
  bool m_space = false;          // a blank was read since the last text
  std::size_t m_no_double = std::string_view::npos, m_no_square = std::string_view::npos,
              m_no_paren = std::string_view::npos, m_no_dquote = std::string_view::npos,
              m_no_squote = std::string_view::npos;                        // see find_from
  std::optional<std::map<std::size_t, std::vector<std::size_t>>> m_ticks;  // run length → starts
};

// `Label: a / [[B]] / [[C|c]]` → a relation; items split at top level.
Relation parse_relation(std::string_view label, std::string_view items) {
  Relation rel;
  rel.label = std::string(trim(label));
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!outside_links(items, i, depth)) continue;
    std::size_t sep = 0;
    if (items[i] == '/' || items[i] == ',' || items[i] == ';')
      sep = 1;
    else if (starts_with(items.substr(i), "\xE3\x80\x81") || starts_with(items.substr(i), "\xEF\xBC\x8F") ||
             starts_with(items.substr(i), "\xEF\xBC\x8C"))  // 、 ／ ，
      sep = 3;
    if (sep) {
      parts.push_back(items.substr(start, i - start));
      start = i + sep;
      i += sep - 1;
    }
  }
  parts.push_back(items.substr(start));
  for (std::string_view part : parts) {
    part = trim(part);
    if (part.empty()) continue;
    bool linked = false;
    for (std::size_t p = part.find("[["); p != std::string_view::npos; p = part.find("[[", p + 2)) {
      const auto close = part.find("]]", p + 2);
      if (close == std::string_view::npos) break;
      std::string_view inner = part.substr(p + 2, close - p - 2);
      inner = inner.substr(0, inner.find('|'));
      inner = trim(inner.substr(0, inner.find('#')));
      linked = true;
      if (inner.empty() || inner.front() == '@') continue;
      rel.items.push_back({std::string(inner), true});
    }
    if (!linked && part.size() <= 80) {
      std::string name;
      for (char ch : part)
        if (ch != '*' && ch != '`') name += ch;
      name = std::string(trim(name));
      if (!name.empty()) rel.items.push_back({name, false});
    }
  }
  return rel;
}

// The level of a heading line ("#" to "######", then a space or nothing); 0 for other lines.
std::size_t heading_level(std::string_view line) {
  std::size_t h = 0;
  while (h < line.size() && line[h] == '#') ++h;
  return h <= 6 && (h == line.size() || line[h] == ' ') ? h : 0;
}

// The text of a list item ("- ", "* ", "+ ", "1. ", and a task box "[ ] " or
// "[x] " after it); nullopt for a line that is not one.
std::optional<std::string_view> list_item(std::string_view line) {
  std::string_view item;
  if ((line[0] == '-' || line[0] == '*' || line[0] == '+') && line.size() > 1 && line[1] == ' ') {
    item = trim(line.substr(2));
  } else {
    std::size_t d = 0;
    while (d < line.size() && std::isdigit(static_cast<unsigned char>(line[d]))) ++d;
    if (d == 0 || d + 1 >= line.size() || line[d] != '.' || line[d + 1] != ' ') return std::nullopt;
    item = trim(line.substr(d + 2));
  }
  if (starts_with(item, "[ ] ") || starts_with(item, "[x] ")) item.remove_prefix(4);
  return item;
}

// A longer first heading is a paragraph that lost its line breaks (a flattened note), not a title.
constexpr std::size_t MAX_HEADING_TITLE = 250;

// The Markdown body, block by block, into the note: text, headings, links,
// tags and labelled lists (relations).
class BodyRenderer {
 public:
  explicit BodyRenderer(Note& note) : m_note(note) {}

  void render(std::string_view body) {
    bool in_fence = false;
    std::size_t pos = 0;
    while (pos < body.size()) {
      std::size_t nl = body.find('\n', pos);
      if (nl == std::string_view::npos) nl = body.size();
      std::string_view raw = body.substr(pos, nl - pos);
      pos = nl + 1;
      if (starts_with(trim(raw), "```") || starts_with(trim(raw), "~~~")) {
        in_fence = !in_fence;
        add_unshown(m_note, trim(raw).substr(3));  // the language: ```python
        continue;
      }
      if (in_fence) {
        render_verbatim(raw);
        continue;
      }
      for (std::string_view line : unflatten(raw)) {
        line = trim(line);
        if (!line.empty()) render_block(line);
      }
    }
  }

 private:
  // A line of a code block: its text as it is, no links, tags or markup.
  void render_verbatim(std::string_view line) {
    std::string& out = m_note.text;
    line = trim(line);
    if (line.empty()) return;
    if (!out.empty() && out.back() != '\n') out += '\n';
    out.append(line);
  }

  void render_line(std::string_view line) { LineRenderer(m_note, line).render(); }

  // One non-empty line outside code blocks: a heading, a list item or a
  // paragraph (a quote's '> ' dropped); a table row or an inline field is
  // text too, and may be a property.
  void render_block(std::string_view line) {
    if (const std::size_t level = heading_level(line)) {
      render_heading(level, trim(line.substr(level)));
    } else if (const auto item = list_item(line)) {
      inline_field(*item);
      // An ordered item's number is text ("27. :sall" in a help file), a bullet is not.
      render_item(*item, std::isdigit(static_cast<unsigned char>(line[0])) ? line : *item);
    } else {
      if (starts_with(line, "> ")) line.remove_prefix(2);
      if (!table_row(line)) {
        m_table_row = 0;
        inline_field(line);
        if (!m_seen_heading) tag_line(line);
      }
      render_line(line);
    }
    m_first_block = false;
  }

  // "# Title" repeating the file name (or the front matter's title) as the
  // first block is the title, not text; another first "# " heading is the
  // title when the front matter has none.
  void render_heading(std::size_t level, std::string_view heading) {
    // The title heading: the title as a whole word (a flattened note's
    // paragraph runs on after it), never just a prefix of a longer word.
    std::string_view title_prefix;
    for (const std::string* t : {&m_note.fm_title, &m_note.title})
      if (!t->empty() && starts_with(heading, *t) &&
          (heading.size() == t->size() || heading[t->size()] == ' '))
        title_prefix = *t;
    if (level == 1 && m_first_block && !title_prefix.empty()) {
      std::string_view rest = trim(heading.substr(title_prefix.size()));
      leading_tags(rest);
      if (!rest.empty()) render_line(rest);
    } else if (level == 1 && m_first_block && m_note.fm_title.empty() && !heading.empty() &&
               unicode::length(heading) <= MAX_HEADING_TITLE && !placeholder_title(heading)) {
      m_note.heading_title = std::string(heading);
    } else {
      m_seen_heading = true;
      m_table_row = 0;
      m_note.headings.emplace_back(heading);
      render_line(heading);
    }
  }

  // A row of a two-column table before the first heading: past the header
  // and the |---|---| line, each row is a property (key, value as written).
  bool table_row(std::string_view line) {
    if (line.size() < 2 || line.front() != '|') return false;
    std::string_view inner = line.substr(1);
    if (!inner.empty() && inner.back() == '|') inner.remove_suffix(1);
    const auto bar = inner.find('|');
    const bool two = bar != std::string_view::npos && inner.find('|', bar + 1) == std::string_view::npos;
    const std::string_view key = trim(inner.substr(0, bar)), value = two ? trim(inner.substr(bar + 1)) : "";
    const auto rule = [](std::string_view c) {
      return !c.empty() && c.find_first_not_of(":- ") == std::string_view::npos && c.find('-') != c.npos;
    };
    if (m_table_row == 1 && !(two && rule(key) && rule(value))) m_table_row = -1;  // no table: no rule line
    if (two && !m_seen_heading && m_table_row >= 2 && !key.empty() && !value.empty())
      m_note.properties.push_back({unmarked(key), {std::string(value)}, PropertySource::Table});
    if (m_table_row >= 0) ++m_table_row;
    return true;
  }

  // `key:: value`, Dataview's inline field.
  void inline_field(std::string_view line) {
    const auto sep = line.find("::");
    if (sep == std::string_view::npos || sep == 0 || sep > 60) return;
    const std::string_view key = trim(line.substr(0, sep)), value = trim(line.substr(sep + 2));
    // A key is a name ("start-date", "Journal"), not a formula's fragment ("\\tau", "e \\;") or a
    // string's; and a blank follows "::", unlike Ruby's and C++'s Net::HTTP.
    if (key.empty() || value.empty() || key.find_first_of("[]()`|#\\$;{}=\"'<>") != std::string_view::npos ||
        (sep + 2 < line.size() && line[sep + 2] != ' ' && line[sep + 2] != '\t'))
      return;
    m_note.properties.push_back({unmarked(key), {std::string(value)}, PropertySource::InlineField});
  }

  // A line made only of #tags, before the first heading: the note's own tags.
  void tag_line(std::string_view line) {
    const auto words = strings::split_nonempty(line, ' ');
    const bool only_tags =
        !words.empty() && std::all_of(words.begin(), words.end(), [](const std::string& w) {
          return w.size() > 1 && w[0] == '#' && w[1] != '#';
        });
    if (only_tags)
      for (const auto& w : words) m_note.own_tags.push_back(w.substr(1));
  }

  // A flattened note's tag line runs on after its title ("# NVIDIA #company 米国の…"):
  // the #tags the rest starts with are the note's own.
  void leading_tags(std::string_view rest) {
    for (const auto& w : strings::split_nonempty(rest, ' ')) {
      if (w.size() < 2 || w[0] != '#' || w[1] == '#') break;
      m_note.own_tags.push_back(w.substr(1));
    }
  }

  // A key without its emphasis marks: "**Authors**" → "Authors".
  static std::string unmarked(std::string_view key) {
    std::string out;
    for (char c : key)
      if (c != '*' && c != '_') out += c;
    return std::string(trim(out));
  }

  // A list item; a label before ':' (or '：', whichever comes first) makes a relation.
  void render_item(std::string_view item, std::string_view shown) {
    std::size_t colon = item.find(':');
    std::size_t colon_len = 1;
    const std::size_t wide = item.find("\xEF\xBC\x9A");
    if (wide != std::string_view::npos && (colon == std::string_view::npos || wide < colon)) {
      colon = wide;
      colon_len = 3;
    }
    if (colon != std::string_view::npos && colon > 0) {
      std::string_view label = item.substr(0, colon);
      if (is_label(label)) m_note.relations.push_back(parse_relation(label, item.substr(colon + colon_len)));
    }
    render_line(shown);
  }

  Note& m_note;
  bool m_first_block = true;    // no block rendered yet: a "# Title" heading here is the title
  bool m_seen_heading = false;  // a heading other than the title was rendered: properties and tag lines end
  int m_table_row = 0;          // rows of the current table so far (-1: lines that are no table)
};

// Every key of the front matter as a property: a scalar is one value (a
// string of authors stays one: splitting names is the indexer's business), a
// list of scalars its items; nested maps say nothing a facet reads.
void read_properties(const YAML::Node& fm, Note& note) {
  for (const auto& kv : fm) {
    if (!kv.first.IsScalar()) continue;
    Property p{kv.first.as<std::string>(), {}, PropertySource::FrontMatter};
    if (kv.second.IsScalar()) {
      p.values.push_back(kv.second.as<std::string>());
    } else if (kv.second.IsSequence()) {
      for (const auto& item : kv.second)
        if (item.IsScalar()) p.values.push_back(item.as<std::string>());
    }
    p.values.erase(std::remove_if(p.values.begin(), p.values.end(),
                                  [](const std::string& v) { return trim(v).empty(); }),
                   p.values.end());
    if (!p.values.empty()) note.properties.push_back(std::move(p));
  }
}

void read_front_matter(const YAML::Node& fm, Note& note) {
  read_properties(fm, note);
  // Aliases and tags are words: "tags: a, b" and "tags: a b" are lists too.
  auto words = [&](std::string_view key) {
    std::vector<std::string> out;
    for (const auto& value : note.property(key))
      for (const auto& field : strings::split(value, ','))
        for (auto& word : strings::split_nonempty(field, ' ')) out.push_back(std::move(word));
    return out;
  };
  if (const auto titles = note.property("title"); !titles.empty() && !placeholder_title(titles[0]))
    note.fm_title = std::string(trim(titles[0]));
  for (const char* key : {"aliases", "alias"})
    for (const auto& a : note.property(key)) note.aliases.push_back(a);
  for (const char* key : {"tags", "tag"})
    for (auto& t : words(key)) {
      if (!t.empty() && t.front() == '#') t.erase(0, 1);
      if (t.empty()) continue;
      note.tags.push_back(t);
      note.own_tags.push_back(std::move(t));
    }
}

// The front matter as grep sees it, keys aside, as unshown text: each line's
// value (a list's items, a block's lines, comments), but the title's and the
// aliases' (names the note is found by as names). Read line by line, so a
// front matter YAML cannot read is searchable too.
void add_front_matter_text(std::string_view yaml, Note& note) {
  bool names = false;  // in the value of the title or the aliases
  for (std::string_view line : strings::split(yaml, '\n')) {
    std::size_t from = line.find_first_not_of(" \t");
    if (from == std::string_view::npos) continue;
    std::string_view rest = trim(line.substr(from));
    if (starts_with(rest, "- ")) rest = trim(rest.substr(2));
    // A key: a name and ':' before a blank or the end; with blanks only at the
    // top level, where every line is a key or a comment.
    const std::size_t colon = rest.find(':');
    if (colon != std::string_view::npos && colon > 0 &&
        (colon + 1 == rest.size() || rest[colon + 1] == ' ') &&
        rest.substr(0, colon).find_first_of(from == 0 ? "\"'[{#" : " \"'[{#") == std::string_view::npos) {
      if (from == 0) {
        const std::string key = unicode::fold_name(rest.substr(0, colon));
        names = key == "aliases" || key == "alias" || (key == "title" && !note.fm_title.empty());
      }
      rest = trim(rest.substr(colon + 1));
    } else if (from == 0 && rest.front() != '#') {
      names = false;
    }
    if (!rest.empty() && (!names || rest.front() == '#')) add_unshown(note, rest);  // a comment is no name
  }
}

// Reads YAML front matter into the note; what is wrong with it becomes a warning, not an error.
void load_front_matter(const std::string& yaml, Note& note) {
  try {
    YAML::Node fm = YAML::Load(yaml);
    if (fm.IsMap())
      read_front_matter(fm, note);
    else if (!fm.IsNull())
      note.warnings.push_back("front matter: not a map of keys to values");
  } catch (const YAML::Exception& e) {
    note.warnings.push_back(
        fmt::format("front matter: malformed YAML at line {}: {}", e.mark.line + 2, e.msg));
  }
}

// The body of content: after the YAML front matter between '---' lines (the
// closing line may be '...'), which is read into the note.
std::string_view strip_front_matter(std::string_view content, Note& note) {
  if (!starts_with(content, "---\n") && !starts_with(content, "---\r\n")) return content;
  const std::size_t first = content.find('\n') + 1;
  for (std::size_t pos = first; pos <= content.size();) {
    const std::size_t nl = content.find('\n', pos);
    const std::string_view l =
        trim(content.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    if (l == "---" || l == "...") {
      load_front_matter(std::string(content.substr(first, pos - first)), note);
      add_front_matter_text(content.substr(first, pos - first), note);
      return content.substr(nl == std::string_view::npos ? content.size() : nl + 1);
    }
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  note.warnings.push_back("front matter: no closing '---' line");
  return content;
}

// A note with what its path tells: the title, and the source it is when
// the name is a citation key.
Note note_at(std::string_view path) {
  Note note;
  note.path = std::string(path);
  note.title = std::string(note_title(path));
  if (!note.title.empty() && note.title.front() == '@') note.source = parse_citation(note.title);
  return note;
}

}  // namespace

Note NoteParser::parse(std::string_view path, std::string_view content) const {
  if (const auto nul = content.find('\0'); nul != std::string_view::npos)
    throw Error(fmt::format("{}: binary file (NUL byte at byte {})", path, nul));
  if (const auto bad = unicode::find_invalid_utf8(content); bad != std::string_view::npos)
    throw Error(fmt::format("{}: invalid UTF-8 at byte {}", path, bad));
  Note note = note_at(path);
  if (starts_with(content, "\xEF\xBB\xBF")) content.remove_prefix(3);  // BOM
  // The front matter first: a title heading is recognised by its title too.
  const std::string_view body = strip_front_matter(content, note);
  BodyRenderer(note).render(body);
  return note;
}

}  // namespace sagasu
