// --open: what it names, and how each kind of editor is told the line.
#include "open.h"

#include <catch2/catch.hpp>

#include "sagasu/error.h"

using sagasu::editor_arguments;
using sagasu::parse_open_target;
using Args = std::vector<std::string>;

TEST_CASE("Open, --open names the Nth hit or FILE:LINE", "[open]") {
  CHECK(parse_open_target("3").rank == 3);
  const auto t = parse_open_target("wiki/a b.md:12");
  CHECK(t.rank == 0);
  CHECK(t.file == "wiki/a b.md");
  CHECK(t.line == 12);
  CHECK(parse_open_target("c:/x.md:7").file == "c:/x.md");
  CHECK_THROWS_AS(parse_open_target("0"), sagasu::UsageError);
  CHECK_THROWS_AS(parse_open_target("x.md"), sagasu::UsageError);
  CHECK_THROWS_AS(parse_open_target(":4"), sagasu::UsageError);
  CHECK_THROWS_AS(parse_open_target("x.md:four"), sagasu::UsageError);
}

TEST_CASE("Open, the line as each editor takes it", "[open]") {
  CHECK(editor_arguments("vi", "/v/a.md", 12, 3) == Args{"+12", "/v/a.md"});
  CHECK(editor_arguments("/usr/bin/nvim", "/v/a.md", 12, 3) == Args{"+12", "/v/a.md"});
  CHECK(editor_arguments("emacsclient -t", "/v/a.md", 5, 1) == Args{"+5", "/v/a.md"});
  CHECK(editor_arguments("nano", "/v/a.md", 5, 1) == Args{"+5", "/v/a.md"});
  CHECK(editor_arguments("code --wait", "/v/a.md", 12, 3) == Args{"--goto", "/v/a.md:12:3"});
  CHECK(editor_arguments("  codium", "/v/a.md", 1, 1) == Args{"--goto", "/v/a.md:1:1"});
  CHECK(editor_arguments("subl -w", "/v/a.md", 12, 3) == Args{"/v/a.md:12:3"});
  CHECK(editor_arguments("hx", "/v/a.md", 12, 3) == Args{"/v/a.md:12:3"});
}
