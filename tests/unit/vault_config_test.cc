// The vault config file: what it adds, and one clear error naming file and line.
#include "vault_config.h"

#include <catch2/catch.hpp>

#include "sagasu/error.h"
#include "test_index.h"

using namespace sagasu;

namespace {

std::string error_of(const std::string& yaml) {
  test::TempDir dir;
  test::write_file(dir.path / "c.yaml", yaml);
  try {
    VaultConfig::load(dir.path / "c.yaml", ".sagasu/config.yaml");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("VaultConfig, defaults and what a file adds", "[config]") {
  const VaultConfig d;
  CHECK(d.key_rank(&schema::YEAR, "Date") >= 0);
  CHECK(d.key_rank(&schema::KIND, "entity_type") < d.key_rank(&schema::KIND, "type"));
  CHECK(d.key_rank(&schema::VENUE, "created") < 0);
  CHECK(d.known_venue("icra") == std::optional<std::string>("ICRA"));
  CHECK(d.text().empty());

  test::TempDir dir;
  test::write_file(dir.path / "c.yaml",
                   "keys:\n  year: [date_created]\nkinds:\n  book: [monograph]\n  zine: []\n"
                   "people:\n  Jonathan Sterne: [J. Sterne]\norganizations: [MIT Media Lab]\n");
  const VaultConfig c = VaultConfig::load(dir.path / "c.yaml", "c.yaml");
  CHECK(c.key_rank(&schema::YEAR, "date_created") >= 0);
  CHECK(c.key_rank(&schema::YEAR, "date") >= 0);  // the defaults stay
  test::write_file(dir.path / "i.yaml", "ignore: [date]\nkeys:\n  year: [date, created]\n");
  const VaultConfig i = VaultConfig::load(dir.path / "i.yaml", "i.yaml");
  CHECK(i.key_rank(&schema::YEAR, "date") < 0);  // this vault's date is the day a note was written
  CHECK(i.key_rank(&schema::YEAR, "created") >= 0);
  CHECK(i.known_key("date"));  // not reported as a key no facet reads
  CHECK(c.kinds().canonical("monograph") == std::optional<std::string>("book"));
  CHECK(c.kinds().is_kind("zine"));
  CHECK(c.people().at("Jonathan Sterne") == std::vector<std::string>{"J. Sterne"});
  CHECK(c.organizations().count("MIT Media Lab") == 1);
  CHECK_FALSE(c.text().empty());
}

TEST_CASE("VaultConfig, a broken file is one error with the file, the line and the problem", "[config]") {
  CHECK(error_of("keys:\n  venu: [x]\n") ==
        ".sagasu/config.yaml:2: keys.venu: unknown facet (expected venue, year, person, org, kind or tag)");
  CHECK(error_of("paths:\n  - '(?<venue>[a-z+'\n") ==
        ".sagasu/config.yaml:2: paths[0]: bad regular expression at character 15: "
        "U_REGEX_MISSING_CLOSE_BRACKET");
  CHECK(error_of("paths:\n  - 'papers/(\\d+)/'\n") ==
        ".sagasu/config.yaml:2: paths[0]: no named group (?<venue>…), (?<year>…), (?<person>…), (?<org>…), "
        "(?<kind>…) or (?<tag>…)");
  CHECK(
      error_of("kyes:\n  venue: [x]\n") ==
      ".sagasu/config.yaml:1: unknown section 'kyes' (expected keys, ignore, paths, kinds, venues, people or "
      "organizations)");
  CHECK(error_of("keys: [\n").rfind(".sagasu/config.yaml:2: malformed YAML: ", 0) == 0);
  CHECK(error_of("kinds:\n  book: {a: b}\n") == ".sagasu/config.yaml:2: kinds.book: expected a list");
}
