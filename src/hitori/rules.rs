//! What the solver may deduce ([`Rules`]) and the error for an unknown strategy or rule name.
//!
//! Below propagation and search, so that both read the rule set without depending on each
//! other.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// An unknown strategy or rule-set name.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("unknown {kind} `{found}`, expected one of: {expected}")]
pub struct UnknownName {
    /// What was being named ("strategy" or "rules").
    pub kind: &'static str,
    /// The name given.
    pub found: String,
    /// The accepted names, comma-separated.
    pub expected: String,
}

/// Which deductions propagation makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// The article's two rules, done soundly: a white cell blackens the other copies of its
    /// number in its row and in its column; a black cell whitens its four neighbours.
    Basic,
    /// `basic` plus sandwich (`x y x` => y white), adjacent pair (`x x` => the other x's of the
    /// line black), cut-vertex reasoning (an unknown cell whose blackening would split the
    /// white cells is white) and failed-literal probing (an unknown cell whose black or white
    /// colour contradicts under the rules above takes the other colour).
    Full,
}

impl Rules {
    /// Every rule set, in a stable order.
    pub const ALL: [Rules; 2] = [Rules::Basic, Rules::Full];

    /// The name used on the command line and in records.
    pub fn name(&self) -> &'static str {
        match self {
            Rules::Basic => "basic",
            Rules::Full => "full",
        }
    }
}

impl FromStr for Rules {
    type Err = UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Rules::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| UnknownName {
                kind: "rules",
                found: s.to_string(),
                expected: Rules::ALL.map(|x| x.name()).join(", "),
            })
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
