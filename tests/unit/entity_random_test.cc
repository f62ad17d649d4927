// Random vaults (a review's harness): a vault of 3-7 notes in path order
// whose titles, aliases and links fold alike in many ways (case, width, path
// and heading forms, display text), one change at a time (an edit of the
// front matter or the body, a deletion, a new note), extended as the indexer
// extends it (extended / adopted / removed / orphaned, with what the indexer
// tells them), compared byte for byte with a full pass. REVIEW_ROUNDS and
// REVIEW_SEED run more of them; SHOWDIFF=1 prints each mismatch's names.
#include <catch2/catch.hpp>
#include <iostream>
#include <map>
#include <random>

#include "entity_resolver.h"
#include "note_fixture.h"
#include "sagasu/unicode.h"

using namespace sagasu;

namespace {

struct RVault {
  NoteParser p;
  std::map<std::string, std::string> files;  // path → text (path order: the vault's)

  std::vector<NoteDigest> digests(const std::map<std::string, std::string>& f) const {
    std::vector<NoteDigest> d;
    for (const auto& [path, text] : f) d.push_back(test::digest(p.parse(path, text)));
    return d;
  }
  std::string full(const std::map<std::string, std::string>& f, KindVocabulary* kinds = nullptr) const {
    EntityResolver r;
    for (auto& d : digests(f)) r.add(std::move(d));
    r.finish();
    if (kinds) *kinds = r.vocabulary();
    return r.serialize();
  }
  static bool is_page_in(const std::vector<NoteDigest>& ds, std::string_view name) {
    return std::any_of(ds.begin(), ds.end(), [&](const NoteDigest& d) { return d.title == name; });
  }
  // The indexer's gives_key: another note's title, another page's alias (ambiguous ones), in the vault after.
  static bool gives(const std::vector<NoteDigest>& ds, const std::string& self, std::string_view key) {
    for (const auto& d : ds) {
      if (unicode::fold_name(d.title) == key) return true;
      if (d.title == self) continue;
      for (const auto& a : d.aliases)
        if (unicode::fold_name(a) == key) return true;
    }
    return false;
  }
  static bool names_key(const NoteDigest& d, const std::string& key) {
    const auto ours = [&](const std::string& n) { return unicode::fold_name(n) == key; };
    return std::any_of(d.names.begin(), d.names.end(), ours) ||
           std::any_of(d.labelled.begin(), d.labelled.end(), [&](const auto& l) { return ours(l.first); }) ||
           std::any_of(d.hints.begin(), d.hints.end(), [&](const auto& h) { return ours(h.name); }) ||
           std::any_of(d.lists.begin(), d.lists.end(),
                       [&](const auto& l) { return std::any_of(l.begin(), l.end(), ours); });
  }

  // One change: path's text becomes `text` (nullopt: deleted; path new: a new note).
  // Returns {extended?, equal to a full pass?, how}.
  std::tuple<bool, bool, std::string> change(const std::string& path,
                                             const std::optional<std::string>& text) {
    KindVocabulary kinds;
    const std::string before_enc = full(files, &kinds);
    const auto stored = EntityResolver::deserialize(before_enc, kinds);
    REQUIRE(stored);
    std::map<std::string, std::string> after_files = files;
    if (text)
      after_files[path] = *text;
    else
      after_files.erase(path);
    const auto after_ds = digests(after_files);
    const auto is_page = [&](std::string_view n) { return is_page_in(after_ds, n); };
    std::optional<EntityResolver> e;
    std::string how;
    const auto old_it = files.find(path);
    std::optional<NoteDigest> before;
    if (old_it != files.end()) before = test::digest(p.parse(path, old_it->second));
    std::vector<const NoteDigest*> naming;  // every other note, in path order
    for (const auto& d : after_ds)
      if (!(before && d.title == before->title) &&
          !(text && d.title == test::digest(p.parse(path, *text)).title))
        naming.push_back(&d);
    if (text) {
      const NoteDigest after = test::digest(p.parse(path, *text));
      std::vector<const NoteDigest*> others;
      // (a note of another path but the same title is another note: keep it)
      for (const auto& [q, t] : after_files)
        if (q != path) others.push_back(nullptr);
      const auto gk = [&](std::string_view key) {
        std::vector<NoteDigest> rest;
        for (const auto& [q, t] : after_files)
          if (q != path) rest.push_back(test::digest(p.parse(q, t)));
        return gives(rest, after.title, key);
      };
      int same_title = 0;
      for (const auto& d : after_ds) same_title += d.title == after.title;
      // (An edit of one of them that keeps the page's fields: weighed as any edit.)
      // (A new one saying nothing of the page: weighed from that page mentioning nothing.)
      const bool second = same_title > 1 && !before && stored->silent(after, is_page);
      const NoteDigest unwritten = EntityResolver::unwritten(after);
      if (same_title > 1 && !second && !(before && EntityResolver::same_page(*before, after)))
        return {false, false, "two of a title"};
      std::vector<NoteDigest> rest_now;  // (the other notes, in the vault's order)
      for (const auto& [q, t] : after_files)
        if (q != path) rest_now.push_back(test::digest(p.parse(q, t)));
      const auto naming_of = [&](std::string_view) {  // (every note, this one in its place)
        std::vector<const NoteDigest*> nm;
        for (const auto& d : after_ds) nm.push_back(&d);
        return std::optional(nm);
      };
      const auto page_of = [&](std::string_view title) { return test::page_titled(rest_now, title); };
      EntityResolver::Extension what;
      e = stored->extended(second   ? &unwritten
                           : before ? &*before
                                    : nullptr,
                           after, is_page, &what, gk, naming_of, page_of);
      how = second           ? "extended(a second note)"
            : same_title > 1 ? "extended(two of a title)"
            : before         ? "extended"
                             : "extended(new)";
      // (The indexer's: the page of two notes decided again from one of them is refused.)
      if (same_title > 1 &&
          (what.page || std::count(what.rekinded.begin(), what.rekinded.end(), after.title)))
        e.reset();
      if (!e && before && same_title == 1) {
        e = stored->aliased(*before, after, is_page, nullptr, gk, naming_of, page_of);
        how = "aliased";
      }
      if (!e && !before && !second) {
        std::vector<NoteDigest> rest;
        for (const auto& [q, t] : after_files)
          if (q != path) rest.push_back(test::digest(p.parse(q, t)));
        std::vector<const NoteDigest*> nm;
        for (const auto& d : rest) nm.push_back(&d);
        e = stored->adopted(after, nm, is_page, nullptr, gk, naming_of, page_of);
        how = "adopted";
      }
    } else {
      std::vector<NoteDigest> rest = after_ds;
      const auto gk = [&](std::string_view key) { return gives(rest, before->title, key); };
      const std::string key = unicode::fold_name(before->title);
      bool named = false;
      std::vector<const NoteDigest*> nm;
      for (const auto& d : rest) {
        nm.push_back(&d);
        named = named || names_key(d, key);
      }
      // (the indexer asks this only when no other note has its title, no other page's alias folds like it)
      bool aliased = false;
      for (const auto& d : rest)
        for (const auto& a : d.aliases)
          if (unicode::fold_name(a) == key) aliased = true;
      const auto naming_of = [&](std::string_view) { return std::optional(nm); };  // (every note left)
      const auto page_of = [&](std::string_view title) { return test::page_titled(rest, title); };
      if (is_page(before->title) && stored->silent(*before, is_page)) {  // (another note keeps the page)
        EntityResolver::Extension what;
        e = stored->extended(&*before, EntityResolver::unwritten(*before), is_page, &what, gk, naming_of,
                             page_of);
        if (what.page || std::count(what.rekinded.begin(), what.rekinded.end(), before->title)) e.reset();
        how = "extended(a second note deleted)";
      } else if (!is_page(before->title) && !aliased) {
        if (!named) {
          e = stored->removed(*before, is_page, nullptr, gk, false, naming_of, page_of);
          how = "removed";
        } else {
          e = stored->orphaned(*before, nm, is_page, nullptr, gk, naming_of, page_of);
          how = "orphaned";
        }
      }
    }
    const std::string again = full(after_files);
    const bool same = e && e->serialize() == again;
    if (e && !same && std::getenv("SHOWDIFF")) {
      auto full_r = EntityResolver::deserialize(again, e->vocabulary());
      for (const auto& n : e->changed_names(*full_r))
        std::cout << "DIFF " << n << ": ext " << e->kind(n).value_or("-") << "/" << to_string(e->evidence(n))
                  << " full " << full_r->kind(n).value_or("-") << "/" << to_string(full_r->evidence(n))
                  << " canon " << e->canonical(n) << " vs " << full_r->canonical(n) << "\n";
    }
    return {e.has_value(), same, how};
  }
};

std::string pick(std::mt19937& rng, const std::vector<std::string>& v) {
  return v[rng() % v.size()];
}

const std::vector<std::string> NAMES{
    "Nova", "NOVA",  "nova", "ＮＯＶＡ", "Nova Lab", "Target",           "target",    "Xin Liu",  "xin liu",
    "Meta", "Quiet", "Solo", "SOLO",     "Facebook", "Kyoto University", "Alias One", "alias one"};

std::string link(std::mt19937& rng) {
  const std::string n = pick(rng, NAMES);
  switch (rng() % 9) {
    case 0:
      return "[[folder/" + n + "]]";
    case 1:
      return "[[" + n + ".md]]";
    case 2:
      return "[[" + n + "#見出し]]";
    case 3:
      return "[[" + n + "^abc]]";
    case 4:
      return "[[" + n + "|表示]]";
    default:
      return "[[" + n + "]]";
  }
}

std::string random_body(std::mt19937& rng) {
  std::string t;
  for (std::size_t k = rng() % 4; k > 0; --k) {
    switch (rng() % 11) {
      case 8:  // (a first sentence saying what the page is)
        t += "日本の研究者。";
        break;
      case 9:
        t += "米国の半導体企業で、GPU の最大手。";
        break;
      case 10:  // (a page's layout: its parent organization)
        t += "\n## 関連\n- 親組織: " + link(rng) + "\n";
        break;
      case 0:
        t += link(rng) + " の話。";
        break;
      case 1:
        t += link(rng) + "による開発。";
        break;
      case 2:
        t += link(rng) + "・" + link(rng) + "（訳）。";
        break;
      case 3:
        t += "\n## 関連\n- 関連研究者: " + link(rng) + "\n";
        break;
      case 4:
        t += "\n## 関連\n- 協力機関: " + link(rng) + " / " + link(rng) + "\n";
        break;
      case 5:
        t += "研究者 " + link(rng) + " も。";
        break;
      case 6:
        t += link(rng) + "（京都大学）。";
        break;
      default:
        t += "本文。";
        break;
    }
  }
  return t;
}

std::string random_head(std::mt19937& rng) {
  std::string fm;
  switch (rng() % 6) {
    case 0:
      fm += "entity_type: person\n";
      break;
    case 1:
      fm += "entity_type: organization\n";
      break;
    case 2:
      fm += "type: paper\nvenue: OSDI\nyear: 2024\n";
      break;
    case 3:
      fm += "type: concept\n";
      break;
    default:
      break;
  }
  if (rng() % 2) {
    std::string list;
    for (std::size_t n = 1 + rng() % 2; n > 0; --n) list += (list.empty() ? "" : ", ") + pick(rng, NAMES);
    fm += "aliases: [" + list + "]\n";
  }
  return fm.empty() ? "" : "---\n" + fm + "---\n";
}

const std::vector<std::string> FILES{"Nova.md",   "NOVA.md", "nova.md",      "x/Nova.md",  "Nova Lab.md",
                                     "Target.md", "a.md",    "b/z.md",       "Xin Liu.md", "Meta.md",
                                     "Quiet.md",  "Solo.md", "Alias One.md", "0.md",       "zz.md"};

// REVIEW_ROUNDS and REVIEW_SEED: how many random vaults, from which seed.
int review_rounds() {
  return std::getenv("REVIEW_ROUNDS") ? std::atoi(std::getenv("REVIEW_ROUNDS")) : 6000;
}
unsigned review_seed() {
  return std::getenv("REVIEW_SEED") ? std::atoi(std::getenv("REVIEW_SEED")) : 1;
}

// A random vault of 3-7 notes.
void fill_random(RVault& v, std::mt19937& rng) {
  for (std::size_t n = 3 + rng() % 5; n > 0; --n)
    v.files[pick(rng, FILES)] = random_head(rng) + random_body(rng);
}

// One of its notes, at random.
std::map<std::string, std::string>::const_iterator random_note(const RVault& v, std::mt19937& rng) {
  auto it = v.files.begin();
  std::advance(it, rng() % v.files.size());
  return it;
}

// each(v, note, rng) for review_rounds() random vaults from review_seed(), `note` one of v's
// notes at random.
template <class Each>
void each_random_note(Each each) {
  std::mt19937 rng(review_seed());
  for (int i = 0; i < review_rounds(); ++i) {
    RVault v;
    fill_random(v, rng);
    each(v, random_note(v, rng), rng);
  }
}

}  // namespace

TEST_CASE("EntityResolver, random changes of random vaults extend as a full pass resolves", "[entities]") {
  const int rounds = review_rounds();
  std::mt19937 rng(review_seed());
  std::map<std::string, int> tried, extended, wrong;
  int shown = 0;
  for (int i = 0; i < rounds; ++i) {
    RVault v;
    fill_random(v, rng);
    // The change.
    std::string path;
    std::optional<std::string> text;
    const int op = rng() % 4;
    if (op == 0) {  // delete
      const auto it = random_note(v, rng);
      path = it->first;
    } else if (op == 1) {  // new
      path = pick(rng, FILES);
      if (v.files.count(path)) continue;
      text = random_head(rng) + random_body(rng);
    } else {  // edit: aliases or body
      const auto it = random_note(v, rng);
      path = it->first;
      const std::string& old = it->second;
      if (op == 2) {  // keep body, new head
        const auto end = old.rfind("---\n");
        const std::string body = old.rfind("---\n", 0) == 0 && end != 0 ? old.substr(end + 4) : old;
        text = random_head(rng) + body;
      } else {  // keep head, new body
        const auto end = old.rfind("---\n");
        const std::string head = old.rfind("---\n", 0) == 0 && end != 0 ? old.substr(0, end + 4) : "";
        text = head + random_body(rng);
      }
    }
    const auto [ext, same, how] = v.change(path, text);
    ++tried[how];
    if (ext) ++extended[how];
    if (ext && !same) {
      ++wrong[how];
      if (shown++ < 6) {
        std::cout << "=== MISMATCH (" << how << ") change " << path << (text ? " to:\n" + *text : " deleted")
                  << "\n--- vault:\n";
        for (const auto& [q, t] : v.files) std::cout << "## " << q << "\n" << t << "\n";
      }
    }
  }
  if (std::getenv("REVIEW_ROUNDS"))
    for (const auto& [how, n] : tried)
      std::cout << how << ": tried " << n << ", extended " << extended[how] << ", wrong " << wrong[how]
                << "\n";
  CHECK(extended["extended"] > rounds / 20);  // (the changes exercise every way)
  CHECK(extended["removed"] > rounds / 100);
  CHECK(extended["orphaned"] > 0);
  CHECK(extended["adopted"] > 0);
  int total_wrong = 0;
  for (const auto& [how, n] : wrong) total_wrong += n;
  CHECK(total_wrong == 0);
}

// A note moved to another folder (the same text, elsewhere in the vault's
// order): where EntityResolver::moves_freely says its place decides nothing,
// a full pass of the vault after the move resolves exactly as before. (The
// indexer asks it for a note whose title no other note has, and none of
// whose aliases two pages give, as here.)
TEST_CASE("EntityResolver, a note moved in the vault's order resolves the same where moves_freely says so",
          "[entities]") {
  int asked = 0, freely = 0, moved_differs = 0, wrong = 0;
  each_random_note([&](RVault& v, auto it, std::mt19937& rng) {
    const std::string path = it->first;
    const std::string file = path.substr(path.rfind('/') + 1);
    std::map<std::string, std::string> after = v.files;
    after.erase(path);
    after[(rng() % 2 ? "00/" : "zzz/") + file] = it->second;  // (first or last in path order)
    const auto ds = v.digests(v.files);
    const NoteDigest d = test::digest(v.p.parse(path, it->second));
    if (std::count_if(ds.begin(), ds.end(), [&](const NoteDigest& o) { return o.title == d.title; }) > 1)
      return;
    KindVocabulary kinds;
    EntityResolver full_before;
    for (auto digest : ds) full_before.add(std::move(digest));
    full_before.finish();
    if (std::any_of(d.aliases.begin(), d.aliases.end(), [&](const std::string& a) {
          return full_before.ambiguous().count(unicode::fold_name(a));
        }))
      return;
    const std::string before_enc = v.full(v.files, &kinds);
    const auto stored = EntityResolver::deserialize(before_enc, kinds);
    REQUIRE(stored);
    ++asked;
    const bool same = v.full(after) == before_enc;
    moved_differs += !same;
    if (stored->moves_freely(d, [&](std::string_view n) { return RVault::is_page_in(ds, n); })) {
      ++freely;
      if (!same) {
        ++wrong;
        std::cout << "=== MOVED " << path << " resolves otherwise\n";
        for (const auto& [q, t] : v.files) std::cout << "## " << q << "\n" << t << "\n";
      }
    }
  });
  if (std::getenv("REVIEW_ROUNDS"))
    std::cout << "moves: asked " << asked << ", free " << freely << ", resolving otherwise " << moved_differs
              << ", wrong " << wrong << "\n";
  CHECK(freely > asked / 10);  // (the check lets moves through)
  CHECK(moved_differs > 0);    // (and the vaults have moves it must refuse)
  CHECK(wrong == 0);
}

// A page renamed with every link to it rewritten, as Obsidian renames a note:
// where EntityResolver::renamed gives a resolution (the notes relinked as
// relinked() reads them, the page's place deciding nothing, no other page's
// alias folding like its old title: the indexer's conditions), a full pass of
// the vault after the rename gives the same.
TEST_CASE("EntityResolver, a page renamed with its links rewritten resolves as a full pass", "[entities]") {
  const std::vector<std::string> new_titles{
      "Renamed Page", "新しい名前", "Kyoto University 2", "Nova Lab", "Quiet Org", "京都大学", "Solo"};
  int asked = 0, renamed = 0, wrong = 0;
  each_random_note([&](RVault& v, auto it, std::mt19937& rng) {
    const std::string path = it->first;
    const std::string dir = path.find('/') == std::string::npos ? "" : path.substr(0, path.rfind('/') + 1);
    const std::string from = path.substr(dir.size(), path.size() - dir.size() - 3);
    const std::string to = pick(rng, new_titles);
    if (v.files.count(dir + to + ".md")) return;
    std::map<std::string, std::string> after;
    for (const auto& [q, t] : v.files) {
      std::string text = t;
      for (const std::string end : {"]]", "|"})
        for (std::size_t at; (at = text.find("[[" + from + end)) != std::string::npos;)
          text.replace(at, from.size() + 2, "[[" + to);
      after[q == path ? dir + to + ".md" : q] = text;
    }
    const auto ds = v.digests(v.files), after_ds = v.digests(after);
    const NoteDigest page = test::digest(v.p.parse(path, it->second));
    if (std::count_if(ds.begin(), ds.end(), [&](const NoteDigest& o) { return o.title == page.title; }) > 1)
      return;
    // (The indexer's: no other page's alias folds like the old title; every other note relinked.)
    const std::string old_key = unicode::fold_name(page.title);
    if (std::any_of(ds.begin(), ds.end(), [&](const NoteDigest& o) {
          return o.title != page.title && std::any_of(o.aliases.begin(), o.aliases.end(), [&](const auto& a) {
                   return unicode::fold_name(a) == old_key;
                 });
        }))
      return;
    bool relinked = true;
    for (const auto& [q, t] : v.files) {  // (the page too: its links to itself, its title)
      const std::string q_after = q == path ? dir + to + ".md" : q;
      NoteDigest was = EntityResolver::relinked(test::digest(v.p.parse(q, t)), from, to);
      if (q == path) {
        was.title = to;
        if (was.display_title == from) was.display_title = to;
      }
      NoteDigest now = test::digest(v.p.parse(q_after, after.at(q_after)));
      was.glosses = now.glosses;
      relinked = relinked && was == now;
    }
    if (!relinked) return;
    KindVocabulary kinds;
    const std::string before_enc = v.full(v.files, &kinds);
    const auto stored = EntityResolver::deserialize(before_enc, kinds);
    REQUIRE(stored);
    if (!stored->moves_freely(page, [&](std::string_view n) { return RVault::is_page_in(ds, n); })) return;
    ++asked;
    const auto r = stored->renamed(page, to);
    if (!r) return;
    ++renamed;
    if (r->serialize() != v.full(after)) {
      ++wrong;
      if (wrong < 4) {
        std::cout << "=== RENAMED " << path << " to " << to << " resolves otherwise\n";
        for (const auto& [q, t] : v.files) std::cout << "## " << q << "\n" << t << "\n";
      }
    }
  });
  if (std::getenv("REVIEW_ROUNDS"))
    std::cout << "renames: asked " << asked << ", renamed " << renamed << ", wrong " << wrong << "\n";
  CHECK(renamed > asked / 10);
  CHECK(wrong == 0);
}

// A page given an alias by which notes name a name no page has (as a user
// names a page by what notes already write): where EntityResolver::aliased
// gives a resolution (the indexer's conditions: one note of the title), a
// full pass of the vault after the edit gives the same.
TEST_CASE("EntityResolver, a page given an alias notes already use resolves as a full pass", "[entities]") {
  int asked = 0, aliased = 0, wrong = 0, unaliased = 0, wrong_back = 0;
  each_random_note([&](RVault& v, auto it, std::mt19937& rng) {
    const std::string path = it->first, old = it->second;
    const auto ds = v.digests(v.files);
    const NoteDigest before = test::digest(v.p.parse(path, old));
    if (std::count_if(ds.begin(), ds.end(), [&](const NoteDigest& o) { return o.title == before.title; }) > 1)
      return;
    KindVocabulary kinds;
    const std::string before_enc = v.full(v.files, &kinds);
    const auto stored = EntityResolver::deserialize(before_enc, kinds);
    REQUIRE(stored);
    const auto is_page = [&](std::string_view n) { return RVault::is_page_in(ds, n); };
    // The alias: a spelling of a name no page has, as some note writes it.
    std::vector<std::string> unpaged;
    for (const auto& d : ds)
      for (const auto& n : d.names)
        if (!is_page(stored->canonical(n))) unpaged.push_back(n);
    if (unpaged.empty()) return;
    const std::string alias = pick(rng, unpaged);
    std::string text = old;
    if (text.rfind("---\n", 0) != 0) {
      text = "---\naliases: [" + alias + "]\n---\n" + text;
    } else if (const auto at = text.find("aliases: [");
               at != std::string::npos && at < text.find("---\n", 4)) {
      text.insert(at + 10, alias + ", ");
    } else {
      text.insert(4, "aliases: [" + alias + "]\n");
    }
    std::map<std::string, std::string> after_files = v.files;
    after_files[path] = text;
    const auto after_ds = v.digests(after_files);
    const NoteDigest after = test::digest(v.p.parse(path, text));
    const auto naming_of = [&](std::string_view) {  // (every note, this one as it is now)
      std::vector<const NoteDigest*> nm;
      for (const auto& d : after_ds) nm.push_back(&d);
      return std::optional(nm);
    };
    std::vector<NoteDigest> rest;
    for (const auto& [q, t] : after_files)
      if (q != path) rest.push_back(test::digest(v.p.parse(q, t)));
    const auto page_of = [&](std::string_view title) { return test::page_titled(rest, title); };
    const auto gk = [&](std::string_view key) { return RVault::gives(rest, after.title, key); };
    const auto is_page_after = [&](std::string_view n) { return RVault::is_page_in(after_ds, n); };
    ++asked;
    const std::string after_enc = v.full(after_files);
    const auto r = stored->aliased(before, after, is_page_after, nullptr, gk, naming_of, page_of);
    if (r) {
      ++aliased;
      if (r->serialize() != after_enc) {
        ++wrong;
        if (wrong < 4) {
          std::cout << "=== ALIASED " << path << " with " << alias << " resolves otherwise\n";
          for (const auto& [q, t] : v.files) std::cout << "## " << q << "\n" << t << "\n";
        }
      }
    }
    // And the alias taken back (unaliased), from the vault with it.
    const auto with_alias = EntityResolver::deserialize(after_enc, kinds);
    REQUIRE(with_alias);
    const auto naming_before = [&](std::string_view) {
      std::vector<const NoteDigest*> nm;
      for (const auto& d : ds) nm.push_back(&d);
      return std::optional(nm);
    };
    const auto gk_before = [&](std::string_view key) { return RVault::gives(rest, before.title, key); };
    const auto back =
        with_alias->unaliased(after, before, is_page, nullptr, gk_before, naming_before, page_of);
    if (!back) return;
    ++unaliased;
    if (back->serialize() != before_enc) {
      ++wrong_back;
      if (wrong_back < 4) {
        std::cout << "=== UNALIASED " << path << " of " << alias << " resolves otherwise\n";
        for (const auto& [q, t] : after_files) std::cout << "## " << q << "\n" << t << "\n";
      }
    }
  });
  if (std::getenv("REVIEW_ROUNDS"))
    std::cout << "aliases: asked " << asked << ", aliased " << aliased << ", wrong " << wrong
              << "; unaliased " << unaliased << ", wrong " << wrong_back << "\n";
  CHECK(aliased > asked / 20);
  CHECK(unaliased > asked / 20);
  CHECK(wrong == 0);
  CHECK(wrong_back == 0);
}

// A second note of a page's title, new or deleted, that says nothing of the
// page (EntityResolver::silent: no kind word, layout, defining sentence,
// alias...): weighed as that page mentioning nothing, then as it is (or the
// other way), a full pass of the vault after gives the same; placed first or
// last in path order.
TEST_CASE("EntityResolver, a second note of a title that says nothing of its page resolves as a full pass",
          "[entities]") {
  const int rounds = review_rounds();
  int silent_new = 0, silent_gone = 0, extended_new = 0, extended_gone = 0, wrong = 0;
  each_random_note([&](RVault& v, auto it, std::mt19937& rng) {
    const std::string title = test::digest(v.p.parse(it->first, it->second)).title;
    const std::string path = (rng() % 2 ? "00/" : "zzz/") + title + ".md";
    if (v.files.count(path)) return;
    std::map<std::string, std::string> with = v.files;
    with[path] = random_body(rng);
    const NoteDigest d = test::digest(v.p.parse(path, with[path]));
    // Weighs the vault `from` becoming `to` by the note at `path` coming (or going).
    const auto weigh = [&](const std::map<std::string, std::string>& from,
                           const std::map<std::string, std::string>& to, bool coming, int& silent,
                           int& extended) {
      KindVocabulary kinds;
      const auto stored = EntityResolver::deserialize(v.full(from, &kinds), kinds);
      REQUIRE(stored);
      const auto to_ds = v.digests(to);
      const auto is_page = [&](std::string_view n) { return RVault::is_page_in(to_ds, n); };
      if (!stored->silent(d, is_page)) return;
      ++silent;
      std::vector<NoteDigest> rest;
      for (const auto& [q, t] : to)
        if (q != path) rest.push_back(test::digest(v.p.parse(q, t)));
      const auto naming_of = [&](std::string_view) {
        std::vector<const NoteDigest*> nm;
        for (const auto& x : to_ds) nm.push_back(&x);
        return std::optional(nm);
      };
      const auto page_of = [&](std::string_view t) { return test::page_titled(rest, t); };
      const auto gk = [&](std::string_view key) { return RVault::gives(rest, title, key); };
      const NoteDigest unwritten = EntityResolver::unwritten(d);
      EntityResolver::Extension what;
      auto e = coming ? stored->extended(&unwritten, d, is_page, &what, gk, naming_of, page_of)
                      : stored->extended(&d, unwritten, is_page, &what, gk, naming_of, page_of);
      // (The indexer's: the page's kind decided again from one of its notes is a full pass.)
      if (!e || what.page || std::count(what.rekinded.begin(), what.rekinded.end(), title)) return;
      ++extended;
      if (e->serialize() != v.full(to)) {
        ++wrong;
        if (wrong < 4) {
          std::cout << "=== SECOND NOTE " << path << (coming ? " new" : " deleted") << ":\n"
                    << with[path] << "\n";
          for (const auto& [q, t] : v.files) std::cout << "## " << q << "\n" << t << "\n";
        }
      }
    };
    weigh(v.files, with, true, silent_new, extended_new);
    weigh(with, v.files, false, silent_gone, extended_gone);
  });
  if (std::getenv("REVIEW_ROUNDS"))
    std::cout << "second notes: new " << silent_new << " silent, " << extended_new << " extended; deleted "
              << silent_gone << " silent, " << extended_gone << " extended; wrong " << wrong << "\n";
  CHECK(extended_new > rounds / 20);
  CHECK(extended_gone > rounds / 20);
  CHECK(wrong == 0);
}
