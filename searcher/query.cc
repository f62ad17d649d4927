#include "query.h"

#include <fmt/format.h>

#include <algorithm>

#include "sagasu/error.h"
#include "sagasu/schema.h"

namespace sagasu {

namespace {

// The length in bytes of the blank at s[i], or 0: ASCII blanks, and the
// blanks an IME or a copied text brings (U+3000 ideographic space, no-break
// and other typographic spaces) separate query words as a space does.
std::size_t space_at(const std::string& s, std::size_t i) {
  if (i >= s.size()) return 0;
  const unsigned char c = static_cast<unsigned char>(s[i]);
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r') return 1;
  auto next = [&](std::size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0; };
  if (c == 0xC2 && next(1) == 0xA0) return 2;                                          // U+00A0
  if (c == 0xE3 && next(1) == 0x80 && next(2) == 0x80) return 3;                       // U+3000
  if (c == 0xE2 && next(1) == 0x80 && (next(2) <= 0x8A || next(2) == 0xAF)) return 3;  // U+2000–200A, 202F
  if (c == 0xE2 && next(1) == 0x81 && next(2) == 0x9F) return 3;                       // U+205F
  return 0;
}

// Column (1-based, in characters) of byte offset i.
std::size_t column_of(const std::string& s, std::size_t i) {
  std::size_t col = 1;
  for (std::size_t k = 0; k < i && k < s.size(); ++k)
    if ((static_cast<unsigned char>(s[k]) & 0xC0) != 0x80) ++col;
  return col;
}

// A token of the query language.
struct Lexeme {
  enum class Kind { Open, Close, Or, And, Not, Leaf, End } kind;
  QueryPart part;
  std::size_t at = 0;  // byte offset
};

class Lexer {
 public:
  explicit Lexer(const std::string& q) : m_q(q) {}

  Lexeme next() {
    for (std::size_t n; (n = space_at(m_q, m_i)) > 0;) m_i += n;
    Lexeme lx{Lexeme::Kind::End, {}, m_i};
    if (m_i >= m_q.size()) return lx;
    const char c = m_q[m_i];
    if (c == '(') {
      ++m_i;
      m_groups.push_back(nullptr);  // a plain group: no field of its own
      lx.kind = Lexeme::Kind::Open;
      return lx;
    }
    if (c == ')') {
      ++m_i;
      if (!m_groups.empty()) m_groups.pop_back();
      lx.kind = Lexeme::Kind::Close;
      return lx;
    }
    // Operators are upper-case words standing alone.
    for (const auto& [word, kind] : {std::pair{"OR", Lexeme::Kind::Or}, std::pair{"AND", Lexeme::Kind::And},
                                     std::pair{"NOT", Lexeme::Kind::Not}}) {
      const std::size_t n = std::char_traits<char>::length(word);
      if (m_q.compare(m_i, n, word) == 0 &&
          (m_i + n == m_q.size() || space_at(m_q, m_i + n) || m_q[m_i + n] == '(' || m_q[m_i + n] == ')')) {
        m_i += n;
        lx.kind = kind;
        return lx;
      }
    }
    if (c == '-' && m_i + 1 < m_q.size() && !space_at(m_q, m_i + 1) && m_q[m_i + 1] != ')') {
      ++m_i;
      lx.kind = Lexeme::Kind::Not;
      return lx;
    }
    lx.kind = Lexeme::Kind::Leaf;
    QueryPart& part = lx.part;
    part.column = column_of(m_q, m_i);
    // field:value?
    const schema::Field* f = nullptr;
    const std::string_view rest = std::string_view(m_q).substr(m_i);
    const schema::Prefix prefix = schema::field_prefix(rest, &f);
    const std::string field(prefix == schema::Prefix::None ? std::string_view()
                                                           : rest.substr(0, rest.find(':')));
    if (prefix == schema::Prefix::Field) {
      m_i += field.size() + 1;
      if (m_i >= m_q.size() || space_at(m_q, m_i) || m_q[m_i] == ')')
        throw UsageError(fmt::format("query: {}: needs a value at column {}", f->name, column_of(m_q, m_i)));
      if (m_q[m_i] == '(') {  // field:(a OR b): the group's words are values of the field
        ++m_i;
        m_groups.push_back(f);
        lx.kind = Lexeme::Kind::Open;
        return lx;
      }
      set_field(part, *f);
    } else if (prefix == schema::Prefix::Unknown) {
      // foo:bar names no field: an error, so a typo is not searched as text.
      throw UsageError(fmt::format(
          "query: {}: no such field at column {} (fields: title, {}); to search the text, quote it: \"{}\"",
          field, column_of(m_q, m_i), schema::field_names(false, " and "),
          m_q.substr(m_i, std::min(m_q.find_first_of(" \t()", m_i), m_q.size()) - m_i)));
    } else {
      // Inside field:( … ), a value without a field of its own is the group's.
      for (auto g = m_groups.rbegin(); g != m_groups.rend(); ++g)
        if (*g) {
          set_field(part, **g);
          break;
        }
    }
    read_value(part);
    return lx;
  }

  std::size_t column(std::size_t at) const { return column_of(m_q, at); }

 private:
  // A leaf's value: a quoted phrase, or the text up to a space or parenthesis.
  void read_value(QueryPart& part) {
    if (m_q[m_i] == '"') {
      const std::size_t close = m_q.find('"', m_i + 1);
      if (close == std::string::npos)
        throw UsageError(fmt::format("query: unbalanced quote at column {}", column_of(m_q, m_i)));
      part.value = m_q.substr(m_i + 1, close - m_i - 1);
      if (part.type == QueryPart::Type::Text) part.type = QueryPart::Type::Phrase;
      if (part.value.find_first_not_of(" \t") == std::string::npos)
        throw UsageError(fmt::format("query: empty quotes at column {}", column_of(m_q, m_i)));
      m_i = close + 1;
      return;
    }
    std::size_t end = m_i;
    while (end < m_q.size() && !space_at(m_q, end) && m_q[end] != '(' && m_q[end] != ')') {
      if (m_q[end] == '"')
        throw UsageError(fmt::format("query: unbalanced quote at column {}", column_of(m_q, end)));
      ++end;
    }
    part.value = m_q.substr(m_i, end - m_i);
    m_i = end;
  }

  static void set_field(QueryPart& part, const schema::Field& f) {
    part.type = f.kind == schema::FieldKind::Text ? QueryPart::Type::FieldText : QueryPart::Type::Filter;
    part.field = std::string(f.name);
  }

  const std::string& m_q;
  std::size_t m_i = 0;
  std::vector<const schema::Field*> m_groups;  ///< the open parentheses, each with its field (none: nullptr)
};

class Parser {
 public:
  explicit Parser(const std::string& q) : m_lexer(q) { advance(); }

  QueryNode parse() {
    if (m_cur.kind == Lexeme::Kind::End) return QueryNode{QueryNode::Op::And, {}, {}};
    QueryNode n = parse_or();
    if (m_cur.kind == Lexeme::Kind::Close)
      throw UsageError(fmt::format("query: unbalanced parenthesis at column {}", m_lexer.column(m_cur.at)));
    if (m_cur.kind != Lexeme::Kind::End)
      throw UsageError(fmt::format("query: unexpected text at column {}", m_lexer.column(m_cur.at)));
    return n;
  }

 private:
  void advance() { m_cur = m_lexer.next(); }

  static QueryNode join(QueryNode::Op op, std::vector<QueryNode> nodes) {
    if (nodes.size() == 1) return std::move(nodes.front());
    return QueryNode{op, std::move(nodes), {}};
  }

  QueryNode parse_or() {
    std::vector<QueryNode> alts{parse_and()};
    while (m_cur.kind == Lexeme::Kind::Or) {
      const std::size_t at = m_cur.at;
      advance();
      if (!starts_unary())
        throw UsageError(fmt::format("query: OR needs something after it at column {}", m_lexer.column(at)));
      alts.push_back(parse_and());
    }
    return join(QueryNode::Op::Or, std::move(alts));
  }

  bool starts_unary() const {
    return m_cur.kind == Lexeme::Kind::Leaf || m_cur.kind == Lexeme::Kind::Not ||
           m_cur.kind == Lexeme::Kind::Open;
  }

  QueryNode parse_and() {
    if (!starts_unary())
      throw UsageError(fmt::format("query: expected a word at column {}", m_lexer.column(m_cur.at)));
    std::vector<QueryNode> all{parse_unary()};
    while (true) {
      if (m_cur.kind == Lexeme::Kind::And) {
        const std::size_t at = m_cur.at;
        advance();
        if (!starts_unary())
          throw UsageError(
              fmt::format("query: AND needs something after it at column {}", m_lexer.column(at)));
      } else if (!starts_unary()) {
        break;
      }
      all.push_back(parse_unary());
    }
    return join(QueryNode::Op::And, std::move(all));
  }

  // Nesting is bounded: a query is typed by a person, and recursion must not
  // overflow the stack on a hostile one.
  static constexpr int MAX_DEPTH = 200;
  struct Depth {
    int& d;
    Depth(int& depth, const Lexer& lexer, std::size_t at) : d(depth) {
      if (++d > MAX_DEPTH)
        throw UsageError(
            fmt::format("query: nested more than {} levels at column {}", MAX_DEPTH, lexer.column(at)));
    }
    ~Depth() { --d; }
  };

  QueryNode parse_unary() {
    Depth guard(m_depth, m_lexer, m_cur.at);
    if (m_cur.kind == Lexeme::Kind::Not) {
      const std::size_t at = m_cur.at;
      advance();
      if (!starts_unary())
        throw UsageError(fmt::format("query: NOT needs something after it at column {}", m_lexer.column(at)));
      QueryNode inner = parse_unary();
      return QueryNode{QueryNode::Op::Not, {std::move(inner)}, {}};
    }
    if (m_cur.kind == Lexeme::Kind::Open) {
      const std::size_t at = m_cur.at;
      advance();
      if (m_cur.kind == Lexeme::Kind::Close)
        throw UsageError(fmt::format("query: empty parentheses at column {}", m_lexer.column(at)));
      QueryNode inner = parse_or();
      if (m_cur.kind != Lexeme::Kind::Close)
        throw UsageError(fmt::format("query: unbalanced parenthesis at column {}", m_lexer.column(at)));
      advance();
      return inner;
    }
    QueryNode leaf{QueryNode::Op::Leaf, {}, m_cur.part};
    advance();
    return leaf;
  }

  Lexer m_lexer;
  Lexeme m_cur{Lexeme::Kind::End, {}, 0};
  int m_depth = 0;
};

}  // namespace

QueryNode parse_query_tree(const std::string& query) {
  return Parser(query).parse();
}

std::vector<QueryPart> parse_query(const std::string& query) {
  const QueryNode root = parse_query_tree(query);
  std::vector<QueryPart> out;
  auto leaf_of = [&](const QueryNode& n) {
    if (n.op == QueryNode::Op::Leaf) return n.leaf;
    if (n.op == QueryNode::Op::Not && n.children.front().op == QueryNode::Op::Leaf) {
      QueryPart p = n.children.front().leaf;
      p.negated = true;
      return p;
    }
    throw UsageError(fmt::format("'{}': OR and parentheses are not allowed here", query));
  };
  if (root.op == QueryNode::Op::And)
    for (const auto& c : root.children) out.push_back(leaf_of(c));
  else
    out.push_back(leaf_of(root));
  return out;
}

}  // namespace sagasu
