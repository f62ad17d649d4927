#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "sagasu/error.h"
#include "sagasu/note.h"

using namespace sagasu;

namespace {

std::string read_seed(const std::string& name) {
  std::ifstream in(std::string(SAGASU_SOURCE_DIR) + "/data/vault/" + name, std::ios::binary);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> targets(const Note& n) {
  std::vector<std::string> out;
  for (const auto& l : n.links) out.push_back(l.target);
  return out;
}

const Relation* relation(const Note& n, const std::string& label) {
  for (const auto& r : n.relations)
    if (r.label == label) return &r;
  return nullptr;
}

std::vector<std::string> item_names(const Relation* r) {
  std::vector<std::string> out;
  if (r)
    for (const auto& i : r->items) out.push_back(i.name);
  return out;
}

// Whitespace-insensitive text comparison: line breaks vs spaces do not matter.
std::string squeeze(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ' && c != '\n') out += c;
  return out;
}

}  // namespace

TEST_CASE("NoteParser, seed Xin Liu", "[parser]") {
  const Note n = NoteParser().parse("Xin Liu.md", read_seed("Xin Liu.md"));
  CHECK(n.title == "Xin Liu");
  CHECK_FALSE(n.source);
  CHECK(n.warnings.empty());
  std::vector<std::pair<int, std::string>> cites;
  for (const auto& c : n.citations) cites.emplace_back(c.year, c.venue);
  CHECK(cites == std::vector<std::pair<int, std::string>>{{2024, "NSDI"},
                                                          {2025, "SOSP"},
                                                          {2025, "OSDI"},
                                                          {2026, "MLSys"},
                                                          {2026, "EuroSys"},
                                                          {2026, "OSDI"},
                                                          {2026, "OSDI"}});
  CHECK(n.citations[3].venue_raw == "MLSys2026");
  CHECK(n.citations[3].title == "veScale-FSDP - Flexible and High-Performance FSDP at Scale");
  const auto t = targets(n);
  CHECK(std::count(t.begin(), t.end(), "ByteDance") == 2);
  CHECK(std::count(t.begin(), t.end(), "ByteDance Seed") == 1);
  CHECK(item_names(relation(n, "エンティティ")) == std::vector<std::string>{"ByteDance"});
  REQUIRE(relation(n, "ソース"));
  CHECK(relation(n, "ソース")->items.empty());  // citations are not entities
  // Markup is gone, display text stays.
  CHECK(n.text.find("[[") == std::string::npos);
  CHECK(n.text.find("## ") == std::string::npos);
  CHECK(n.text.find("ストラグラー分析") != std::string::npos);
  CHECK(n.text.find("Understanding Stragglers in Large Model Training Using What-if Analysis (OSDI 2025)") !=
        std::string::npos);
  // The heading repeating the file name is the title, not text.
  CHECK(n.text.rfind("Xin Liu", 0) != 0);
}

TEST_CASE("NoteParser, seed ByteDance Seed", "[parser]") {
  const Note n = NoteParser().parse("ByteDance Seed.md", read_seed("ByteDance Seed.md"));
  CHECK(n.title == "ByteDance Seed");
  CHECK(item_names(relation(n, "関連研究者")) ==
        std::vector<std::string>{"Qiying Yu", "Zezhou Wang", "Yanghua Peng", "Wencong Xiao", "Xin Liu"});
  CHECK(item_names(relation(n, "協力機関")) ==
        std::vector<std::string>{"Shanghai Jiao Tong University", "Tsinghua University"});
  CHECK(item_names(relation(n, "親組織")) == std::vector<std::string>{"ByteDance"});
  const Relation* products = relation(n, "関連プロダクト");
  REQUIRE(products);
  CHECK(products->items == std::vector<RelationItem>{
                               {"Mycroft", true}, {"veScale", true}, {"SDCHunter", false}, {"AEGIS", false}});
  std::set<std::string> venues;
  for (const auto& c : n.citations) venues.insert(c.venue);
  CHECK(venues == std::set<std::string>{"SOSP", "arXiv", "MLSys", "EuroSys", "OSDI"});
  CHECK(n.citations.size() == 6);
}

TEST_CASE("NoteParser, flattened and multi-line forms give the same note", "[parser]") {
  const std::string flat =
      "# Jane Doe [[ByteDance]] 所属。本番クラスタの研究。(Source: [[@2024__NSDI__MegaScale - Scaling]]) "
      "## 関連 - ソース: [[@2024__NSDI__MegaScale - Scaling]] / [[@2026__MLSys2026__veScale-FSDP - X]] "
      "- 関連研究者: [[Xin Liu|劉鑫]] / Someone Else - 協力機関: [[Tsinghua University]]";
  const std::string lines =
      "---\ntype: entity\n---\n# Jane Doe\n\n[[ByteDance]] 所属。\n本番クラスタの研究。(Source: "
      "[[@2024__NSDI__MegaScale - "
      "Scaling]])\n\n## 関連\n\n- ソース: [[@2024__NSDI__MegaScale - Scaling]] / "
      "[[@2026__MLSys2026__veScale-FSDP - "
      "X]]\n- 関連研究者: [[Xin Liu|劉鑫]] / Someone Else\n- 協力機関: [[Tsinghua University]]\n";
  const Note a = NoteParser().parse("p/Jane Doe.md", flat);
  const Note b = NoteParser().parse("p/Jane Doe.md", lines);
  CHECK(a.title == b.title);
  CHECK(targets(a) == targets(b));
  CHECK(a.citations == b.citations);
  CHECK(a.relations == b.relations);
  CHECK(squeeze(a.text) == squeeze(b.text));
  CHECK(item_names(relation(a, "関連研究者")) == std::vector<std::string>{"Xin Liu", "Someone Else"});
  // Display text is text, never the entity.
  CHECK(a.text.find("劉鑫") != std::string::npos);
}

TEST_CASE("NoteParser, link forms", "[parser]") {
  const Note n =
      NoteParser().parse("x.md",
                         "見る [[Page#Section]] と ![[figure.png]] と ![[Other note]] と [[T|shown]]。\n"
                         "[a link](https://example.com) **bold** `code` #paper");
  REQUIRE(n.links.size() == 4);
  CHECK(n.links[0].target == "Page");
  CHECK(n.links[0].heading == "Section");
  CHECK(n.links[1].embed);
  CHECK(n.links[1].target == "figure.png");
  CHECK(n.links[3].display == "shown");
  CHECK(n.text == "見る Page と と Other note と shown。\na link bold code paper");
  CHECK(n.text.substr(n.links[3].text_begin, n.links[3].text_end - n.links[3].text_begin) == "shown");
  CHECK(n.tags == std::vector<std::string>{"paper"});
  CHECK(n.own_tags.empty());  // a tag inside a line of text says nothing about the note
}

TEST_CASE("NoteParser, front matter", "[parser]") {
  const Note n =
      NoteParser().parse("wiki/entities/Meta.md",
                         "---\ntype: entity\nentity_type: organization\naliases: [Facebook, メタ]\n"
                         "tags:\n  - company\n  - '#big'\n---\n# Meta\n本文。\n");
  CHECK(n.property("Entity_Type") == std::vector<std::string>{"organization"});
  CHECK(n.aliases == std::vector<std::string>{"Facebook", "メタ"});
  CHECK(n.tags == std::vector<std::string>{"company", "big"});
  CHECK(n.own_tags == std::vector<std::string>{"company", "big"});
  CHECK(n.text == "本文。");
}

TEST_CASE("NoteParser, malformed front matter is a warning and the body is kept", "[parser]") {
  const Note n = NoteParser().parse("bad.md", "---\ntype: [unclosed\n---\n本文は残る。\n");
  REQUIRE(n.warnings.size() == 1);
  CHECK(n.warnings[0].find("front matter: malformed YAML at line") == 0);
  CHECK(n.text == "本文は残る。");
}

TEST_CASE("NoteParser, source page file names carry year and venue", "[parser]") {
  const Note n = NoteParser().parse("wiki/sources/@2021__SC21__Efficient Large-Scale Training.md", "本文");
  REQUIRE(n.source);
  CHECK(n.source->year == 2021);
  CHECK(n.source->venue == "SC");
  CHECK(n.display_title() == "Efficient Large-Scale Training");
}

TEST_CASE("NoteParser, venue normalisation", "[parser]") {
  CHECK(normalize_venue("MLSys2026") == "MLSys");
  CHECK(normalize_venue("SC21") == "SC");
  CHECK(normalize_venue("NSDI'24") == "NSDI");
  CHECK(normalize_venue("EuroSys") == "EuroSys");
  CHECK(normalize_venue("arXiv") == "arXiv");
  CHECK(normalize_venue("3DV") == "3DV");
  CHECK_FALSE(parse_citation("@20x4__NSDI__T"));
  CHECK_FALSE(parse_citation("Xin Liu"));
}

TEST_CASE("NoteParser, bad content is an error naming the file", "[parser]") {
  CHECK_THROWS_WITH(NoteParser().parse("n/bad.md", std::string("ok\xff\xfe", 4)),
                    "n/bad.md: invalid UTF-8 at byte 2");
  CHECK_THROWS_WITH(NoteParser().parse("n/bin.md", std::string("ab\0cd", 5)),
                    "n/bin.md: binary file (NUL byte at byte 2)");
}

TEST_CASE("NoteParser, a heading that only starts with the title is text", "[parser]") {
  // Not the file name's title with a paragraph after it: the whole heading is the title.
  const Note n = NoteParser().parse("本番.md", "# 本番クラスタの運用\n本文。");
  CHECK(n.display_title() == "本番クラスタの運用");
  CHECK(n.text == "本文。");
  const Note t =
      NoteParser().parse("slug.md", "---\ntitle: 分散学習の障害解析\n---\n# 分散学習の障害解析\n本文。");
  CHECK(t.text == "本文。");  // the title heading is the title
  CHECK(t.fm_title == "分散学習の障害解析");
}

TEST_CASE("NoteParser, code blocks are text without tags or links", "[parser]") {
  const Note n =
      NoteParser().parse("c.md", "前。\n```c\n#include <stdio.h>\n[[not a link]]\n```\n後。 #real");
  CHECK(n.tags == std::vector<std::string>{"real"});
  CHECK(n.links.empty());
  CHECK(n.text.find("#include <stdio.h>") != std::string::npos);
}

TEST_CASE("NoteParser, unclosed brackets stay text", "[parser]") {
  std::string line;
  for (int i = 0; i < 2000; ++i) line += "[[x [y ";
  const Note n = NoteParser().parse("b.md", line);
  CHECK(n.links.empty());
  CHECK(n.text.size() > 10000);
}

TEST_CASE("NoteParser, properties: front matter keys, a table at the top, inline fields", "[parser]") {
  const Note n = NoteParser().parse(
      "p.md",
      "---\ndate: 2013-01-01\nauthor: \"亜貴子, 井手; 稔, 小嶋\"\nkeywords: [a, b]\nnested: {x: 1}\n---\n"
      "# A Title From The Heading\n\n| Item | Value |\n| --- | --- |\n| **Authors** | Shin, Suyeon;Jeon, "
      "Sujin |\n"
      "| Source | ICRA 2025 / arXiv |\n\nvenue:: ICRA\n- year:: 2025\n\n## Later\n\n| Key | Value "
      "|\n|---|---|\n"
      "| Ignored | row below a heading |\n");
  using P = std::vector<Property>;
  CHECK(n.properties == P{{"date", {"2013-01-01"}, PropertySource::FrontMatter},
                          {"author", {"亜貴子, 井手; 稔, 小嶋"}, PropertySource::FrontMatter},
                          {"keywords", {"a", "b"}, PropertySource::FrontMatter},
                          {"Authors", {"Shin, Suyeon;Jeon, Sujin"}, PropertySource::Table},
                          {"Source", {"ICRA 2025 / arXiv"}, PropertySource::Table},
                          {"venue", {"ICRA"}, PropertySource::InlineField},
                          {"year", {"2025"}, PropertySource::InlineField}});
  CHECK(n.property("AUTHORS") == std::vector<std::string>{"Shin, Suyeon;Jeon, Sujin"});
  // Tables are text as before; only their rows near the top are properties.
  CHECK(n.text.find("| Source | ICRA 2025 / arXiv |") != std::string::npos);
  CHECK(n.text.find("| Ignored | row below a heading |") != std::string::npos);
}

TEST_CASE("NoteParser, code and formulas are no inline fields", "[parser]") {
  const Note n =
      NoteParser().parse("ruby.md", "Net::HTTP を使う。\nmsgid \"Example:: see below\"\n$$ \\tau:: x $$\n");
  CHECK(n.properties.empty());
}

TEST_CASE("NoteParser, a code span is text: no link, tag or mark is read in it", "[parser]") {
  // ja-techdocs: 187 code fragments such as `let [[a, b]] = x` were reported as unresolved entities.
  const Note n = NoteParser().parse(
      "a.md", "Vim の `:echo [[1, 2]]` と ``a ` [[b]]`` と `#include` は [[Page]] へ。`**x**` 閉じない ` [[Other]]");
  CHECK(targets(n) == std::vector<std::string>{"Page", "Other"});
  CHECK(n.tags.empty());
  CHECK(n.text == "Vim の :echo [[1, 2]] と a ` [[b]] と #include は Page へ。**x** 閉じない Other");
  // A line of backtick runs that close nothing stays linear (and keeps its text).
  std::string ticks;
  for (int k = 1; k <= 1000; ++k) ticks += std::string(static_cast<std::size_t>(k), '`') + "x";
  CHECK(NoteParser().parse("t.md", ticks).text == std::string(1000, 'x'));
}

TEST_CASE("NoteParser, a placeholder title is no title: the file name or the front matter's says more",
          "[parser]") {
  // Every PO file of a gettext template begins so: 504 notes of ja-techdocs had this one title.
  const Note po = NoteParser().parse("library/os.po",
                                     "# SOME DESCRIPTIVE TITLE.\n# Copyright (C) 2001-2024\nmsgid \"\"\n");
  CHECK(po.display_title() == "os.po");
  CHECK(po.headings.front() == "SOME DESCRIPTIVE TITLE.");  // still text
  const Note untitled = NoteParser().parse("notes/raft.md", "---\ntitle: Untitled\n---\n# Raft\n本文。");
  CHECK(untitled.display_title() == "Raft");
  const Note mudai = NoteParser().parse("notes/x.md", "# 無題\n本文。");
  CHECK(mudai.display_title() == "x");
}

TEST_CASE("NoteParser, a table without its rule line or with three columns is no property table",
          "[parser]") {
  const Note a = NoteParser().parse("a.md", "| Authors | Someone |\n| Source | ICRA 2025 |\n");
  CHECK(a.properties.empty());
  const Note b = NoteParser().parse("b.md", "| Rank | Paper | Why |\n| --- | --- | --- |\n| 1 | X | Y |\n");
  CHECK(b.properties.empty());
}

TEST_CASE("NoteParser, the first heading is the title when the front matter has none", "[parser]") {
  const Note n = NoteParser().parse("papers/2025-icra-3d-spatial-52791a0e.md",
                                    "# 3D Spatial Understanding in MLLMs\n本文。");
  CHECK(n.heading_title == "3D Spatial Understanding in MLLMs");
  CHECK(n.display_title() == "3D Spatial Understanding in MLLMs");
  CHECK(n.text == "本文。");
  CHECK(n.headings.empty());
  const Note t = NoteParser().parse("x.md", "---\ntitle: Front Matter Title\n---\n# Another Heading\n本文。");
  CHECK(t.display_title() == "Front Matter Title");
  CHECK(t.heading_title.empty());
  CHECK(t.headings == std::vector<std::string>{"Another Heading"});
  const Note later = NoteParser().parse("y.md", "前文。\n# Not First\n");
  CHECK(later.display_title() == "y");
}

TEST_CASE("NoteParser, a note's own tags: front matter and lines of #tags before the first heading",
          "[parser]") {
  const Note n = NoteParser().parse(
      "Hannah.md", "#person #art\nMIT Media Labの研究者。 #inline\n### 一覧\n#group\n- #paper\n");
  CHECK(n.own_tags == std::vector<std::string>{"person", "art"});
  CHECK(n.tags == std::vector<std::string>{"person", "art", "inline", "group", "paper"});
  // The same note flattened onto one line: its tag line runs on after the title.
  const Note flat = NoteParser().parse("NVIDIA.md", "# NVIDIA #company 米国の半導体企業。 #gpu ## 関連");
  CHECK(flat.own_tags == std::vector<std::string>{"company"});
}

TEST_CASE("NoteParser, what the file says unshown: front-matter values, link addresses, comments", "[parser]") {
  // A Web Clipper note: words only its description, its source URL or a
  // Zotero link hold were not found, not even with --exact (grep finds them).
  const Note n = NoteParser().parse(
      "Clippings/a.md",
      "---\ntitle: \"Transformer解説\"\naliases: [TF]\nsource: \"https://zenn.dev/k/articles/tf\"\n"
      "author:\n  - \"[[Zenn]]\"\ndescription: 自己注意をゼロから実装する\nextra:\n  nested: deep value\n"
      "tags: [clippings]\n---\n"
      "本文 [pdf](file:///Users/me/Zotero/storage/AB12/rl.pdf) と ![図](img/arch.png) と "
      "[[Attention#Model Architecture]] と ![[figure.png]]。<!-- TODO 追記 -->\n```python\nx = 1\n```\n");
  CHECK(n.text == "本文 pdf と 図 と Attention と 。\nx = 1");
  CHECK(n.unshown ==
        "\"https://zenn.dev/k/articles/tf\"\n\"[[Zenn]]\"\n自己注意をゼロから実装する\ndeep value\n[clippings]\n"
        "file:///Users/me/Zotero/storage/AB12/rl.pdf\nimg/arch.png\nModel Architecture\nfigure.png\nTODO 追記\n"
        "python");  // the title and aliases are names, not unshown text
  CHECK(n.fm_title == "Transformer解説");
  // A placeholder title says nothing of the note, but grep finds it: unshown text. So do
  // comments and what YAML cannot read (rurema's `#%since`, a broken front matter).
  CHECK(NoteParser().parse("u.md", "---\ntitle: Untitled\n---\n# Raft\n").unshown == "Untitled");
  CHECK(NoteParser().parse("r.md", "---\nrequire:\n#%since 3.4\n  - pathname\n#%end\n---\nx").unshown ==
        "#%since 3.4\npathname\n#%end");
  CHECK(NoteParser().parse("r.md", "---\nalias:\n#%until 3.2\n  - Struct::Group\n#%end\n---\nx").unshown ==
        "#%until 3.2\n#%end");
  const Note broken = NoteParser().parse("b.md", "---\ntitle: [unclosed\nnote: 壊れた値\n---\nx");
  CHECK_FALSE(broken.warnings.empty());
  CHECK(broken.unshown == "[unclosed\n壊れた値");
  // An HTML tag's attributes are not shown (a video embed's allow="autoplay;
  // gyroscope" made every note embedding one related to every other); the
  // text between tags is; Vec<T>, <b> and an autolink have no attributes and stay.
  const Note html = NoteParser().parse(
      "h.md",
      "動画 <iframe width=\"560\" src=\"https://www.youtube.com/embed/x\" title=\"Tube Furnace\" "
      "allow=\"autoplay; gyroscope\" allowfullscreen></iframe> を見た。<span class='hl'>強調</span> "
      "<img src=img/a.png alt=図/>\nVec<T> と <b>太字</b> と <https://example.com> と a <b c\n");
  CHECK(html.text == "動画 を見た。強調\nVec<T> と <b>太字 と <https://example.com> と a <b c");
  CHECK(html.unshown ==
        "iframe width=\"560\" src=\"https://www.youtube.com/embed/x\" title=\"Tube Furnace\" "
        "allow=\"autoplay; gyroscope\" allowfullscreen\niframe\nspan class='hl'\nspan\nimg src=img/a.png "
        "alt=図/\nb");
  // Quotes that close nothing: no tag, the text kept, and the line read in linear time.
  std::string unclosed;
  for (int k = 0; k < 20000; ++k) unclosed += "<a b=\"x ";
  const Note open_quotes = NoteParser().parse("q.md", unclosed);
  CHECK(open_quotes.unshown.empty());
  CHECK(open_quotes.text.size() + 1 == unclosed.size());
  // An ordered item's number is text (grep finds "27." in a help file); a bullet is not.
  CHECK(NoteParser().parse("l.md", "27. :sall\n- item\n").text == "27. :sall\nitem");
}
