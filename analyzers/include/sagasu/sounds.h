// Katakana loanwords and the English words they were borrowed from
// (プリフィル ↔ prefill, ストラグラー ↔ straggler): both are reduced to a
// sound key, the consonants as a Japanese ear hears them. A katakana word is
// romanised by ICU (Katakana-Latin); an English word is spelt as it sounds
// (ph → f, ck → k, c before e/i/y → s, "tion" → shon) and then loses what a
// Japanese borrowing drops or merges: an r before a consonant or at the end
// (server サーバー), l = r, v = b, w, y, h after a consonant, and the vowels;
// doubled consonants (ッ, "ll") count once. Keys shorter than MIN_SOUND_KEY
// are not keys: too many words share them.
// The index keeps its words by sound key (schema.h: META_SOUND) for the
// searcher's bridge tier.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sagasu {

inline constexpr std::size_t MIN_SOUND_KEY = 3;

/// What kind of word a sound key was made from.
enum class Script { None, Katakana, Latin };
/// The script of a word term that can have a sound key: katakana (and ー)
/// only, or ASCII letters only (four or more); None otherwise.
Script sound_script(std::string_view word);
/// The word's sound key ("" when it has none: another script, or too short).
std::string sound_key(std::string_view word);
/// Do a katakana word and an English word of one sound key sound alike? The
/// key holds the consonants only; the vowels must agree too: both begin with
/// a vowel or neither does (ローカル is not "local"'s only rival: "lucal"),
/// the first vowel that is not an added one (the u of ス in ストラ) is one an
/// English spelling gives for it (a: a/e, e: e/i, i: i/a/y, …), and so is
/// each vowel after it, in order, but one a long word may have more or
/// fewer (クラウド is "cloud", not "workload"; モデル is not "modulo").
bool sounds_alike(std::string_view katakana, std::string_view latin);
/// How far apart they sound: the edit distance of the romaji without its
/// added vowels and the English as it sounds (the best of several words that
/// sound alike is the nearest: ソルバ is "solver", not "sourav").
std::size_t sound_distance(std::string_view katakana, std::string_view latin);
/// A word typed in romaji as katakana, Hepburn or Kunrei spelling
/// (sutoragura → ストラグラ, sisutemu → システム); "" for what is not romaji
/// throughout (raft, transformer) or has fewer than four letters.
std::string romaji_to_katakana(std::string_view latin);

}  // namespace sagasu
