// People's and organizations' names as notes write them, made one spelling:
// author strings split into names ("Shin, Suyeon;Jeon, Sujin", "A, B, and C",
// "周司あきら、高井ゆと里"), "Last, First" read as "First Last", Japanese names
// kept whole without the space between family and given name, legal forms
// dropped from organizations. The indexer reads metadata with it and the
// searcher reads person: and org: values with it, so both spell a name alike.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sagasu::names {

/// The people of an author string, each in its canonical spelling (person()):
/// split at ';', at ", and" / " and " / " & " and the commas of such a list,
/// at '、' and '，', at '・' between two kanji names (not inside a katakana
/// name); comma-only lists of "Last, First" pairs are read as pairs.
std::vector<std::string> split_people(std::string_view text);

/// One person's name: "Last, First" → "First Last" (everything after the
/// first comma is the given names; a given part already ending with the
/// family name is the whole name); Japanese "家族, 名" → "家族名"; a space
/// between two kanji dropped ("吉野 賢二" → "吉野賢二"); blanks squeezed.
std::string person(std::string_view name);

/// Is this a person's name by its shape: two to five Latin words, each
/// beginning with a letter ("Andrej Karpathy", "Jean-Paul Sartre"), a name of
/// two to eight characters beginning with a kanji ("吉野賢二", "山田さくら"), or
/// katakana parts joined by '・' or a space ("ジョン・スミス")? One word, a
/// handle or a site ("Zenn", "note", "@kanazawa", "zenn.dev") is not.
bool reads_as_person(std::string_view name);

/// The organizations of a string: split at ';', '、' and '，'; each organization().
std::vector<std::string> split_organizations(std::string_view text);

/// One organization's name without its legal form ("一般社団法人 公共とデザイン" →
/// "公共とデザイン", "株式会社X" → "X"); blanks squeezed.
std::string organization(std::string_view name);

}  // namespace sagasu::names
