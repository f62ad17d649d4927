#include "sagasu/names.h"

#include <algorithm>

#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu::names {
namespace {

using strings::ends_with;
using strings::starts_with;

// Runs of blanks (ASCII, no-break and ideographic spaces) as one space, trimmed.
std::string squeeze(std::string_view s) {
  std::string out;
  bool blank = false;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t at = i;
    const char32_t c = unicode::next_code_point(s, i);
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0xA0 || c == 0x3000) {
      blank = true;
      continue;
    }
    if (blank && !out.empty()) out += ' ';
    blank = false;
    out.append(s.substr(at, i - at));
  }
  return out;
}

bool has_latin(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](char c) { return unicode::is_latin_alpha(static_cast<unsigned char>(c)); });
}

// Splits s at every occurrence of any separator; parts trimmed, empty ones dropped.
std::vector<std::string> split_any(std::string_view s, std::initializer_list<std::string_view> seps) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size();) {
    std::size_t len = 0;
    if (i < s.size())
      for (std::string_view sep : seps)
        if (starts_with(s.substr(i), sep)) len = sep.size();
    if (i == s.size() || len) {
      const std::string part = squeeze(s.substr(start, i - start));
      if (!part.empty()) out.push_back(part);
      i += len ? len : 1;
      start = i;
    } else {
      ++i;
    }
  }
  return out;
}

// A space between two kanji goes: "吉野 賢二" is one name written with a gap.
std::string drop_han_spaces(std::string_view s) {
  std::string out;
  char32_t before = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t at = i;
    const char32_t c = unicode::next_code_point(s, i);
    if (c == ' ' && unicode::is_han(before) && i < s.size()) {
      std::size_t j = i;
      if (unicode::is_han(unicode::next_code_point(s, j))) continue;
    }
    out.append(s.substr(at, i - at));
    before = c;
  }
  return out;
}

// Splits at '・' between two kanji ("羽生有希・藤間公太"), never inside a
// katakana name ("ジョン・デューイ").
std::vector<std::string> split_han_dots(std::string_view s) {
  static constexpr std::string_view DOT = "\xE3\x83\xBB";  // ・
  std::vector<std::string> out;
  std::size_t start = 0;
  char32_t before = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t at = i;
    const char32_t c = unicode::next_code_point(s, i);
    if (s.substr(at, DOT.size()) == DOT && unicode::is_han(before) && i < s.size()) {
      std::size_t j = i;
      if (unicode::is_han(unicode::next_code_point(s, j))) {
        out.push_back(std::string(s.substr(start, at - start)));
        start = i;
      }
    }
    before = c;
  }
  out.push_back(std::string(s.substr(start)));
  return out;
}

// A comma-only list: "Last, First" pairs when at least half the parts are one word
// ("Wang, Yifan, Chan, Sherwin Stephen"), else full names ("Dan Abramov, Lauren Tan").
std::vector<std::string> comma_list(const std::vector<std::string>& parts) {
  const auto one_word = std::count_if(parts.begin(), parts.end(),
                                      [](const std::string& p) { return p.find(' ') == std::string::npos; });
  std::vector<std::string> out;
  if (parts.size() == 2 && one_word == 0) return parts;  // two full names
  if (static_cast<std::size_t>(one_word) * 2 < parts.size()) return parts;
  for (std::size_t i = 0; i < parts.size(); i += 2)
    out.push_back(i + 1 < parts.size() ? parts[i] + ", " + parts[i + 1] : parts[i]);
  return out;
}

}  // namespace

std::string person(std::string_view name) {
  std::string s = squeeze(name);
  const auto comma = s.find(',');
  if (comma != std::string::npos) {
    const std::string last = squeeze(s.substr(0, comma));
    std::string first = s.substr(comma + 1);
    std::replace(first.begin(), first.end(), ',', ' ');
    first = squeeze(first);
    if (last.empty() || first.empty()) {
      s = last.empty() ? first : last;
    } else if (first == last || ends_with(first, " " + last)) {
      s = first;  // "Charlick, Zachary Samuel Charlick": the given part is the whole name
    } else if (!has_latin(last) && !has_latin(first)) {
      s = last + first;  // Japanese order: family name, then given name
    } else {
      s = first + " " + last;
    }
  }
  return drop_han_spaces(s);
}

bool reads_as_person(std::string_view name) {
  const std::string n = squeeze(name);
  if (n.empty() || n.find_first_of("@/:#0123456789()[]") != std::string::npos) return false;
  std::size_t i = 0;
  const char32_t first = unicode::next_code_point(n, i);
  if (unicode::is_latin_alpha(first)) {
    // Latin words of letters (and the marks of names: O'Brien, Jean-Paul, J. R. R.); no domain.
    const auto words = strings::split_nonempty(n, ' ');
    if (words.size() < 2 || words.size() > 5 || n.find(".com") != std::string::npos) return false;
    return std::all_of(words.begin(), words.end(), [](const std::string& w) {
      return unicode::is_latin_alpha(static_cast<unsigned char>(w[0])) || static_cast<unsigned char>(w[0]) >= 0x80;
    });
  }
  std::size_t chars = 0, parts = 1;
  for (std::size_t j = 0; j < n.size();) {
    const char32_t c = unicode::next_code_point(n, j);
    if (c == 0x30FB || c == ' ') {
      ++parts;
      continue;
    }
    if (!unicode::is_han(c) && !unicode::is_hiragana(c) && !unicode::is_katakana(c)) return false;
    ++chars;
  }
  if (unicode::is_han(first)) return chars >= 2 && chars <= 8 && parts <= 2;
  return unicode::is_katakana(first) && parts >= 2 && parts <= 4;
}

std::vector<std::string> split_people(std::string_view text) {
  const std::string t = squeeze(text);
  std::vector<std::string> parts;
  if (t.find(';') != std::string::npos || t.find("\xEF\xBC\x9B") != std::string::npos) {
    parts = split_any(t, {";", "\xEF\xBC\x9B"});  // ; ；
  } else if (t.find("\xE3\x80\x81") != std::string::npos || t.find("\xEF\xBC\x8C") != std::string::npos) {
    parts = split_any(t, {"\xE3\x80\x81", "\xEF\xBC\x8C"});  // 、 ，
  } else if (t.find(" and ") != std::string::npos || t.find(" & ") != std::string::npos) {
    parts = split_any(t, {", and ", " and ", " & ", ","});
  } else if (t.find(',') != std::string::npos) {
    parts = comma_list(split_any(t, {","}));
  } else {
    parts = {t};
  }
  std::vector<std::string> out;
  for (const auto& part : parts)
    for (const auto& piece : split_han_dots(part))
      if (std::string p = person(piece); !p.empty() && std::find(out.begin(), out.end(), p) == out.end())
        out.push_back(std::move(p));
  return out;
}

std::string organization(std::string_view name) {
  std::string s = squeeze(name);
  // Legal forms, before or after the name.
  static const std::string_view forms[] = {
      "一般社団法人", "公益社団法人",       "一般財団法人", "公益財団法人", "国立研究開発法人",
      "独立行政法人", "特定非営利活動法人", "学校法人",     "NPO法人",      "株式会社",
      "有限会社",     "合同会社",           "(株)",         "（株）",       "㈱"};
  for (bool again = true; again;) {
    again = false;
    for (std::string_view f : forms) {
      if (s.size() > f.size() && starts_with(s, f)) {
        s = squeeze(s.substr(f.size()));
        again = true;
      } else if (s.size() > f.size() && ends_with(s, f)) {
        s = squeeze(s.substr(0, s.size() - f.size()));
        again = true;
      }
    }
  }
  return s;
}

std::vector<std::string> split_organizations(std::string_view text) {
  std::vector<std::string> out;
  for (const auto& part : split_any(text, {";", "\xEF\xBC\x9B", "\xE3\x80\x81", "\xEF\xBC\x8C"}))
    if (std::string o = organization(part); !o.empty()) out.push_back(std::move(o));
  return out;
}

}  // namespace sagasu::names
