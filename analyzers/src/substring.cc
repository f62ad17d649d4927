#include "sagasu/substring.h"

#include <unicode/bytestream.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "sagasu/analyzer.h"
#include "sagasu/strings.h"
#include "sagasu/unicode.h"

namespace sagasu {
namespace {

constexpr std::string_view ITERATION_MARK = "\xE3\x80\x85";  // 々

// How many 々 a string starts with.
std::size_t leading_repeats(std::string_view s) {
  std::size_t n = 0;
  while (s.substr(n * ITERATION_MARK.size(), ITERATION_MARK.size()) == ITERATION_MARK) ++n;
  return n;
}

const icu::Normalizer2& nfkc_cf() {
  UErrorCode status = U_ZERO_ERROR;
  static const icu::Normalizer2* norm = icu::Normalizer2::getNFKCCasefoldInstance(status);
  if (U_FAILURE(status) || norm == nullptr)
    throw std::runtime_error("ICU: NFKC_Casefold normalizer unavailable");
  return *norm;
}

// Does text hold needle's bytes where normalising keeps them apart: not
// followed by a character that joins the needle's last one (ス + U+3099 is
// ズ, so スデス is not in the NFD text スデズ), as the normalised search of
// find_substring sees it. Found by fuzzing (contains and find disagreed).
bool contains_apart(std::string_view text, std::string_view needle) {
  // A needle that starts with a combining mark joins the character before it
  // wherever it occurs: only the normalised text can say (A + U+0308 is Ä).
  std::int32_t first = 0;
  UChar32 head;
  U8_NEXT(needle.data(), first, static_cast<std::int32_t>(needle.size()), head);
  if (head < 0 || !nfkc_cf().hasBoundaryBefore(head)) return false;
  for (std::size_t at = strings::find(text, needle); at != std::string_view::npos;
       at = strings::find(text, needle, at + 1)) {
    auto i = static_cast<std::int32_t>(at + needle.size());
    if (static_cast<std::size_t>(i) == text.size()) return true;
    UChar32 c;
    U8_NEXT(text.data(), i, static_cast<std::int32_t>(text.size()), c);
    if (c < 0 || nfkc_cf().hasBoundaryBefore(c)) return true;
  }
  return false;
}

bool breaks_run(char32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c < 0x20 || c == 0x7f || c == 0x3000 ||
         c == 0xA0 || (c >= 0x2000 && c <= 0x200B);
}

// Kana folding of already NFKC-folded UTF-8 (ぁ → ア, ッ → ツ) from byte from
// on, in place: every change it makes keeps the UTF-8 length (three-byte kana
// to three-byte kana).
void fold_kana_in_place(std::string& s, std::size_t from = 0) {
  // Every kana is three bytes starting with E3 (never a continuation byte):
  // jump from one E3 to the next instead of decoding every character.
  for (std::size_t at = s.find('\xE3', from); at != std::string::npos && at + 2 < s.size();
       at = s.find('\xE3', at + 3)) {
    const auto b1 = static_cast<unsigned char>(s[at + 1]), b2 = static_cast<unsigned char>(s[at + 2]);
    const char32_t c = 0x3000 | ((b1 & 0x3F) << 6) | (b2 & 0x3F);
    const char32_t f = unicode::full_size_kana(unicode::katakana_of(c));
    if (f == c) continue;
    std::string enc;
    unicode::append_utf8(enc, f);
    s.replace(at, 3, enc);
  }
}

// What fold_text makes of one character, as kana: its katakana pushed onto
// out, a 0 for anything else (one for a run of them), nothing for a
// character NFKC_Casefold removes (soft hyphen, zero-width space); a voicing
// mark composes with the kana before it.
struct KanaStream {
  std::u32string out;
  char32_t last = 0;  ///< the last kana as NFKC left it (ッ, not ツ): what a voicing mark composes with
};

void fold_to_kana(char32_t c, KanaStream& stream) {
  constexpr char32_t OTHER = 0;
  std::u32string& out = stream.out;
  auto push = [&](char32_t k) {
    stream.last = k;
    if (k != OTHER || out.empty() || out.back() != OTHER)
      out.push_back(k == OTHER ? OTHER : unicode::full_size_kana(k));
  };
  // A character NFKC_Casefold leaves as it is: kana folded as fold_kana_in_place does.
  auto folded_kana = [&](char32_t k) {
    if (unicode::is_hiragana(k)) return push(unicode::katakana_of(k));
    if (k == 0x3099 || k == 0x309A) {  // a voicing mark composes with the kana before it (か + ゛ = が)
      const UChar32 composed = stream.last == OTHER ? -1 : nfkc_cf().composePair(stream.last, k);
      if (composed >= 0) {
        stream.last = static_cast<char32_t>(composed);
        out.back() = unicode::full_size_kana(stream.last);
        return;
      }
      return push(OTHER);
    }
    if (unicode::is_katakana(k)) return push(k);
    push(OTHER);
  };
  if ((c >= 0x3041 && c <= 0x3096) || (c >= 0x3099 && c <= 0x309A) || (c >= 0x309D && c <= 0x309E) ||
      (c >= 0x30A1 && c <= 0x30FA) || (c >= 0x30FC && c <= 0x30FE))
    return folded_kana(c);
  // Characters that fold to no kana, without asking ICU: ideographs, CJK
  // punctuation, full-width ASCII.
  if ((c >= 0x3400 && c <= 0x9FFF) || (c >= 0x3000 && c <= 0x303F) || (c >= 0xFF01 && c <= 0xFF5E))
    return push(OTHER);
  // Anything else as NFKC_Casefold maps it: half-width katakana (ｶﾞ = ガ),
  // squared and circled katakana (㌔ = キロ), the digraph ヿ = コト.
  icu::UnicodeString folded;
  UErrorCode status = U_ZERO_ERROR;
  nfkc_cf().normalize(icu::UnicodeString(static_cast<UChar32>(c)), folded, status);
  if (U_FAILURE(status)) throw std::runtime_error("ICU: NFKC_Casefold failed");
  for (int32_t i = 0; i < folded.length(); i = folded.moveIndex32(i, 1))
    folded_kana(static_cast<char32_t>(folded.char32At(i)));
}

// Does fold_text(text) hold the katakana string? The same answer as
// searching the folded text, without normalising all of it: only the kana
// (and the rare characters that fold to kana) are decoded and folded.
bool folded_kana_contains(std::string_view text, std::u32string_view needle) {
  std::string expanded;  // as fold_text reads it
  if (unicode::expand_iteration_marks(text, expanded)) text = expanded;
  KanaStream kana;
  kana.out.reserve(text.size() / 3);
  auto other = [&] {
    kana.last = 0;
    if (kana.out.empty() || kana.out.back() != 0) kana.out.push_back(0);
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {  // ASCII folds to ASCII
      other();
      ++i;
    } else if (b >= 0xE4 && b <= 0xE9) {  // U+4000–U+9FFF: ideographs
      other();
      i += 3;
    } else {
      fold_to_kana(unicode::next_code_point(text, i), kana);
    }
  }
  return std::u32string_view(kana.out).find(needle) != std::u32string_view::npos;
}

// The code points of a folded needle that is katakana (and ー) only; empty otherwise.
std::u32string katakana_needle(std::string_view folded) {
  std::u32string out;
  for (std::size_t i = 0; i < folded.size();) {
    const char32_t c = unicode::next_code_point(folded, i);
    if (!((c >= 0x30A1 && c <= 0x30FA) || c == 0x30FC)) return {};
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::pair<std::size_t, std::size_t> FoldedText::to_original(std::size_t begin, std::size_t end) const {
  auto piece_of = [&](std::size_t folded) {
    auto it = std::upper_bound(pieces.begin(), pieces.end(), folded,
                               [](std::size_t v, const Piece& p) { return v < p.folded_begin; });
    return it == pieces.begin() ? pieces.begin() : it - 1;
  };
  if (pieces.empty()) return {begin, end};
  const auto b = piece_of(begin);
  const auto e = piece_of(end == 0 ? 0 : end - 1);
  return {b->original_begin, e->original_end};
}

FoldedText fold_text(std::string_view s, bool with_map, Fold fold) {
  FoldedText out;
  std::string expanded;  // 々 as the ideograph it repeats, at the same offsets
  if (fold == Fold::Full && unicode::expand_iteration_marks(s, expanded)) s = expanded;
  if (!with_map) {
    // No map wanted (indexing, verification): one normalisation call over the
    // whole text is many times faster than one per character.
    out.text = unicode::nfkc_casefold(s);
    if (fold == Fold::Full) fold_kana_in_place(out.text);
    return out;
  }
  out.text.reserve(s.size());
  const icu::Normalizer2& norm = nfkc_cf();
  std::string chunk_out;
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char lead = static_cast<unsigned char>(s[i]);
    if (lead < 0x80) {  // ASCII: lower case, one byte each
      out.pieces.push_back({static_cast<std::uint32_t>(out.text.size()), static_cast<std::uint32_t>(i),
                            static_cast<std::uint32_t>(i + 1)});
      out.text +=
          (lead >= 'A' && lead <= 'Z') ? static_cast<char>(lead - 'A' + 'a') : static_cast<char>(lead);
      ++i;
      continue;
    }
    // A normalisation chunk: this character and the following ones that
    // may combine with it (ﾊ + ﾞ → バ).
    std::size_t j = i;
    unicode::next_code_point(s, j);
    while (j < s.size()) {
      std::size_t k = j;
      const char32_t c = unicode::next_code_point(s, k);
      if (c < 0x80 || norm.hasBoundaryBefore(static_cast<UChar32>(c))) break;
      j = k;
    }
    chunk_out.clear();
    icu::StringByteSink<std::string> sink(&chunk_out);
    UErrorCode status = U_ZERO_ERROR;
    norm.normalizeUTF8(0, icu::StringPiece(s.data() + i, static_cast<int32_t>(j - i)), sink, nullptr, status);
    if (U_FAILURE(status)) chunk_out.assign(s.substr(i, j - i));
    out.pieces.push_back({static_cast<std::uint32_t>(out.text.size()), static_cast<std::uint32_t>(i),
                          static_cast<std::uint32_t>(j)});
    out.text += chunk_out;
    if (fold == Fold::Full) fold_kana_in_place(out.text, out.text.size() - chunk_out.size());
    i = j;
  }
  return out;
}

std::string fold_query(std::string_view query, Fold fold) {
  std::string q = fold_text(query, false, fold).text;
  // (The shorter string matches both spellings.)
  unicode::drop_long_vowels(q);
  return q;
}

namespace {

// for_each_gram's grams, each with the byte offset it starts at.
template <class Emit>
void grams_at(std::string_view folded, Emit emit) {
  // The run's characters as byte offsets; each starts a gram.
  std::vector<std::size_t> starts;
  std::vector<char32_t> chars;
  std::string term;
  auto flush = [&](std::size_t run_end) {
    for (std::size_t k = 0; k < starts.size(); ++k) {
      const std::size_t len = gram_length(chars[k]);
      const std::size_t last = k + len;  // index after the gram's last character
      if (last <= starts.size()) {
        term.assign(folded.substr(starts[k], (last < starts.size() ? starts[last] : run_end) - starts[k]));
      } else {
        term.assign(folded.substr(starts[k], run_end - starts[k]));
        term += END_OF_RUN;
      }
      emit(term, starts[k]);
    }
    starts.clear();
    chars.clear();
  };
  std::size_t i = 0;
  while (i < folded.size()) {
    const std::size_t at = i;
    const char32_t c = unicode::next_code_point(folded, i);
    if (breaks_run(c)) {
      flush(at);
      continue;
    }
    starts.push_back(at);
    chars.push_back(c);
  }
  flush(folded.size());
}

bool alphanumeric_byte(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

}  // namespace

void for_each_gram(std::string_view folded, const std::function<void(const std::string&)>& emit) {
  grams_at(folded, [&](const std::string& gram, std::size_t) { emit(gram); });
}

void find_joins(std::string_view text, FoldingJoins& joins) {
  const auto add_beside = [&](std::size_t k) {
    if (k < text.size() && static_cast<unsigned char>(text[k]) < 0x80)
      joins.beside_deleted += static_cast<char>(std::tolower(static_cast<unsigned char>(text[k])));
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80 || (b >= 0xE4 && b <= 0xE9)) {  // ASCII, ideographs: kept, a boundary before each
      i += b < 0x80 ? 1 : 3;
      continue;
    }
    const std::size_t at = i;
    const auto c = static_cast<UChar32>(unicode::next_code_point(text, i));
    joins.joined = joins.joined || !nfkc_cf().hasBoundaryBefore(c);
    if (u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) {
      if (at > 0) add_beside(at - 1);
      add_beside(i);
    }
  }
}

bool alphanumeric(std::string_view s) {
  if (!s.empty() && s.back() == END_OF_RUN) s.remove_suffix(1);
  return !s.empty() && std::all_of(s.begin(), s.end(), alphanumeric_byte);
}

std::vector<std::string_view> alphanumeric_runs(std::string_view folded) {
  // (Bytes below 0x80 are never part of a longer UTF-8 character.)
  std::vector<std::string_view> runs;
  for (std::size_t i = 0; i < folded.size();) {
    if (!alphanumeric_byte(folded[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < folded.size() && alphanumeric_byte(folded[j])) ++j;
    runs.push_back(folded.substr(i, j - i));
    i = j;
  }
  return runs;
}

void for_each_indexed_gram(std::string_view folded, const std::function<bool(std::string_view run)>& shown,
                           const std::function<void(const std::string&)>& emit) {
  // The runs no word shows, as [begin, end) byte spans in order: the grams
  // come in order of their start, so one cursor walks them.
  std::vector<std::pair<std::size_t, std::size_t>> hidden;
  for (const std::string_view run : alphanumeric_runs(folded))
    if (!shown(run)) {
      const auto begin = static_cast<std::size_t>(run.data() - folded.data());
      hidden.emplace_back(begin, begin + run.size());
    }
  std::size_t next = 0;
  grams_at(folded, [&](const std::string& gram, std::size_t at) {
    if (!alphanumeric(gram)) return emit(gram);
    while (next < hidden.size() && hidden[next].second <= at) ++next;
    if (next < hidden.size() && hidden[next].first <= at) emit(gram);
  });
}

QueryGrams query_grams(std::string_view q) {
  // A leading 々 repeats a character before the string: in the folded text
  // it is that character, so no gram of the index starts with it. The grams
  // of the rest select the candidates, and the text confirms them.
  const std::size_t repeats = leading_repeats(q);
  if (repeats > 0) {
    QueryGrams rest = query_grams(q.substr(repeats * ITERATION_MARK.size()));
    rest.exact = false;
    return rest;
  }
  std::vector<std::size_t> starts;
  std::vector<char32_t> chars;
  for (std::size_t i = 0; i < q.size();) {
    const std::size_t at = i;
    const char32_t c = unicode::next_code_point(q, i);
    if (breaks_run(c)) continue;
    starts.push_back(at);
    chars.push_back(c);
  }
  QueryGrams out;
  if (chars.empty()) return out;
  const std::size_t n = chars.size();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t last = k + gram_length(chars[k]);
    if (last > n) continue;  // runs past the string's end: the whole grams before it suffice
    const std::size_t end = last < n ? starts[last] : q.size();
    std::string g(q.substr(starts[k], end - starts[k]));
    if (std::find(out.grams.begin(), out.grams.end(), g) == out.grams.end())
      out.grams.push_back(std::move(g));
  }
  if (out.grams.empty()) {
    out.prefix = std::string(q);  // shorter than its first gram: every gram starting so
    out.exact = true;
  } else {
    out.exact = n == gram_length(chars[0]);  // exactly one whole gram
  }
  return out;
}

namespace {

// The analyzer's words around [begin, end) of text: a window of the line,
// wide enough for segmentation to see the context, in text's byte offsets.
std::vector<std::pair<std::size_t, std::size_t>> words_around(Analyzer& analyzer, std::string_view text,
                                                              std::size_t begin, std::size_t end) {
  constexpr std::size_t CONTEXT = 120;  // bytes each side: a few dozen characters
  std::size_t from = begin > CONTEXT ? begin - CONTEXT : 0, to = std::min(text.size(), end + CONTEXT);
  from = unicode::char_start(text, from);
  while (to < text.size() && (static_cast<unsigned char>(text[to]) & 0xC0) == 0x80) ++to;
  const auto nl_before = text.rfind('\n', begin);
  if (nl_before != std::string_view::npos && nl_before + 1 > from) from = nl_before + 1;
  const auto nl_after = text.find('\n', end);
  if (nl_after != std::string_view::npos && nl_after < to) to = nl_after;
  std::vector<std::pair<std::size_t, std::size_t>> words;
  for (const Token& t : analyzer.analyze(text.substr(from, to - from)))
    if (t.kind == TokenKind::Word) words.emplace_back(from + t.byte_begin, from + t.byte_end);
  return words;
}

// Is the occurrence at original bytes [begin, end) one a person would accept?
// It is when the text is the query's up to width and case. When it needs kana
// folding (the text has hiragana where the query has katakana), it must be
// whole words of the analyzer (it starts where a word starts and ends where
// one ends), and each run of hiragana in it one whole word.
bool acceptable(Analyzer& analyzer, std::string_view text, std::size_t begin, std::size_t end,
                const SubstringNeedle& needle) {
  const std::string_view original = text.substr(begin, end - begin);
  const std::u32string seen = unicode::code_points(fold_text(original, false, Fold::Width).text);
  const std::u32string typed = unicode::code_points(needle.width);
  if (seen.size() < typed.size()) return true;  // normalisation merged characters: nothing to compare
  bool variant = false;
  for (std::size_t i = 0; i < typed.size() && !variant; ++i)
    variant = unicode::is_hiragana(seen[i]) && !unicode::is_hiragana(typed[i]);
  if (!variant) return true;
  // The query's trailing long vowels were dropped (サーバー → サーバ): the word goes on over them.
  while (end < text.size()) {
    std::size_t next = end;
    if (!unicode::is_long_vowel_mark(unicode::next_code_point(text, next))) break;
    end = next;
  }
  const auto words = words_around(analyzer, text, begin, end);
  auto starts = [&](std::size_t b) {
    return std::any_of(words.begin(), words.end(), [&](auto w) { return w.first == b; });
  };
  auto ends = [&](std::size_t e) {
    return std::any_of(words.begin(), words.end(), [&](auto w) { return w.second == e; });
  };
  if (!starts(begin) || !ends(end)) return false;
  for (std::size_t i = begin; i < end;) {
    // A run of hiragana in the occurrence: one word.
    std::size_t run_end = i;
    while (run_end < end) {
      std::size_t next = run_end;
      if (!unicode::is_hiragana(unicode::next_code_point(text, next))) break;
      run_end = next;
    }
    if (run_end == i) {
      unicode::next_code_point(text, i);
      continue;
    }
    if (std::find(words.begin(), words.end(), std::make_pair(i, run_end)) == words.end()) return false;
    i = run_end;
  }
  return true;
}

// Calls accept(begin, end) for each occurrence of the needle in text (original
// byte spans) until it returns true; returns whether one did.
// The byte offset k characters before byte p of s (0 when there are fewer).
std::size_t chars_before(std::string_view s, std::size_t p, std::size_t k) {
  for (; k > 0 && p > 0; --k) {
    p = unicode::char_start(s, p - 1);
  }
  return p;
}

// Does the folded text have k + 1 equal ideographs ending at byte p, as k
// leading 々 of a needle require? (佐々木 folds to 佐佐木: 々木 is found where
// 木 follows two equal ideographs.)
bool repeated_before(std::string_view folded, std::size_t p, std::size_t k) {
  const std::size_t from = chars_before(folded, p, k + 1);
  const std::u32string chars = [&] {
    std::u32string out;
    for (std::size_t i = from; i < p;) out += unicode::next_code_point(folded, i);
    return out;
  }();
  return chars.size() == k + 1 && unicode::is_han(chars.front()) &&
         std::all_of(chars.begin(), chars.end(), [&](char32_t c) { return c == chars.front(); });
}

// (checked: the caller knows the folded text holds the needle; else a fold
// without the map says so first.)
template <class F>
bool for_each_occurrence(std::string_view text, const SubstringNeedle& needle, F accept,
                         bool checked = false) {
  if (needle.folded.empty()) return false;
  // Leading 々: the rest of the needle, after as many repeats of an ideograph.
  const std::size_t repeats = leading_repeats(needle.folded);
  const std::string folded = needle.folded.substr(repeats * ITERATION_MARK.size());
  if (folded.empty() || (!checked && fold_text(text).text.find(folded) == std::string::npos))
    return false;  // cheap: no map
  const FoldedText mapped = fold_text(text, true);
  for (std::size_t p = mapped.text.find(folded); p != std::string::npos;
       p = mapped.text.find(folded, p + 1)) {
    if (repeats > 0 && !repeated_before(mapped.text, p, repeats)) continue;
    auto [b, e] = mapped.to_original(p, p + folded.size());
    if (repeats > 0)
      b = mapped.to_original(chars_before(mapped.text, p, repeats), p).first;  // the 々 themselves
    if (accept(b, e)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> find_substring(Analyzer& analyzer, std::string_view text,
                                                                const SubstringNeedle& needle) {
  std::vector<std::pair<std::size_t, std::size_t>> spans;
  for_each_occurrence(text, needle, [&](std::size_t b, std::size_t e) {
    if (acceptable(analyzer, text, b, e, needle)) spans.emplace_back(b, e);
    return false;
  });
  return spans;
}

bool contains_substring(Analyzer& analyzer, std::string_view text, const SubstringNeedle& needle) {
  if (needle.folded.empty()) return false;
  // The commonest cases first, without the character map: the text holds the
  // needle as folded (its own katakana) or as typed; else one normalisation
  // of the whole text says whether it can hold it at all (most candidates
  // the grams select end there); else it holds it up to width and case.
  // Each of these is accepted whatever the words around it.
  if (contains_apart(text, needle.folded)) return true;
  if (!needle.width.empty() && contains_apart(text, needle.width)) return true;
  // One normalisation of the whole text (fold_text is NFKC_Casefold, then kana
  // folding), its width-folded form kept for the second test.
  const std::size_t repeats = leading_repeats(needle.folded);
  std::string width_folded;
  if (const std::u32string kana = katakana_needle(needle.folded); !kana.empty()) {
    if (!folded_kana_contains(text, kana)) return false;
    if (repeats == 0 && !needle.width.empty()) width_folded = unicode::nfkc_casefold(text);
  } else {
    width_folded = unicode::nfkc_casefold(text);
    std::string folded = width_folded;
    fold_kana_in_place(folded);
    if (!strings::contains(folded, needle.folded.substr(repeats * ITERATION_MARK.size()))) return false;
  }
  if (repeats == 0 && !needle.width.empty() && strings::contains(width_folded, needle.width)) return true;
  return for_each_occurrence(
      text, needle, [&](std::size_t b, std::size_t e) { return acceptable(analyzer, text, b, e, needle); },
      true);
}

}  // namespace sagasu
