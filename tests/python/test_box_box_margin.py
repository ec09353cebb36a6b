"""Box-box contacts within large margins (margins comparable to the boxes' size), against
MuJoCo 3.3.7.

Two boxes 0.3 x 0.2 x 0.4 (half sizes) apart within the margin on an edge axis whose overlap is
empty: the incident face, projected along the normal onto the reference face, lies beside it
(pair_box.c, edge_contacts_apart). MuJoCo then reports corners outside the faces, as measured:
an incident corner midway between itself and its projection clamped into the reference
rectangle, with dist sign(t) sqrt(t^2 + |q - clamp(q)|^2) (t its distance along the normal from
the reference plane; negative where it lies behind the plane, so a penetration is reported for
boxes apart), and a reference corner midway between itself and its projection onto the incident
plane clamped into the incident face, with their distance as dist. The poses are those of
tools/box_box_deep.py --apart (seeds 0 and 1 at margins 0.1 and 0.3, seed 0 at 0.03) whose
contacts now agree with MuJoCo's and did not before (24 poses; which corners MuJoCo reports is
matched on about half of the class, see pair_box.c); written out in full so the test does not
depend on the tool. None is a tie: MuJoCo's count is the same on 30 jittered copies of each
(4 ulps) and gauss agrees on all of them.

Parallel faces apart whose overlap is empty (boxes turned from each other by quarter turns):
box 1's face is the reference, and beside two sides of it the incident face comes clipped to its
slab (pair_box.c, beside_points); see the tests at the end.
"""

import itertools

import numpy as np
import pytest

import jitter
from test_collision_pairs import Scene, compare

mujoco = pytest.importorskip("mujoco")

BOX = "0.3 0.2 0.4"

# (margin, where it comes from, (centre 1, quaternion 1, centre 2, quaternion 2))
POSES = [
    (0.1, "seed 0 pose 44", ([-0.16326556468316983, 0.08484227342846828, -0.1789167337613385],
      [0.4757526430587425, 0.1601211572232554, 0.8635826596744193, 0.04738805273233542],
      [-0.8624159094827468, -0.5437464620885315, -0.0800829925305971],
      [0.6622635520690551, 0.4344650704221913, -0.1677353500241321, 0.5869513970817347])),
    (0.1, "seed 0 pose 46", ([0.1336779676361775, -0.13213816812188944, -0.19690689005012596],
      [0.7683444972348518, 0.3274725826730691, -0.006210530321611222, 0.5498816877106175],
      [-0.5699216300128045, 0.6333958887893725, -0.519771352727032],
      [-0.4271768172089983, -0.2524207179655202, 0.12404328130749251, -0.8593119412317226])),
    (0.1, "seed 0 pose 174", ([-0.03919397114559747, -0.07116360390574941, 0.1432732274240005],
      [0.10853198651747208, -0.03745553653530149, 0.7518903427318601, 0.6492139887525452],
      [0.3783835557164974, -1.0906726320010205, 0.10686192753195026],
      [0.3129846442185235, -0.19402615805970017, 0.4443150639696368, -0.8166875696382638])),
    (0.1, "seed 1 pose 0", ([0.1183725261313896, -0.12644902326970248, -0.06589950552633903],
      [-0.6408292360045685, 0.0166612056704925, -0.15680060118389755, -0.7513147582576657],
      [0.4948189980020301, 0.2653830911656449, -0.9938830780604073],
      [-0.10833217077645868, 0.6877174578608194, 0.3702520632194559, 0.6149977630935323])),
    (0.1, "seed 1 pose 122", ([0.17000740802097447, -0.1349741370427592, 0.19607800877824028],
      [-0.9268910065205694, -0.2028790054372913, 0.28036441970682596, -0.14528924029850196],
      [-0.22503799813864261, 0.26461780868822027, 1.0229982779581328],
      [-0.6039254101693714, -0.7891415142789178, -0.008726642796101055, -0.11159576649157649])),
    (0.3, "seed 0 pose 39", ([0.12225531798047568, 0.1799585156420725, -0.02306111738907024],
      [0.7252483397110443, 0.05549187655543204, -0.6185761605614435, 0.29715152863109034],
      [1.2444129964128658, 0.052721335622356424, -0.14092148102433227],
      [0.03890220217929574, -0.8104127687478624, -0.30206412109364383, -0.5004748042248975])),
    (0.3, "seed 0 pose 44", ([-0.16326556468316983, 0.08484227342846828, -0.1789167337613385],
      [0.4757526430587425, 0.1601211572232554, 0.8635826596744193, 0.04738805273233542],
      [-0.9724833995866555, -0.64270541267845, -0.06452356112108336],
      [0.6622635520690551, 0.4344650704221913, -0.1677353500241321, 0.5869513970817347])),
    (0.3, "seed 0 pose 46", ([0.1336779676361775, -0.13213816812188944, -0.19690689005012596],
      [0.7683444972348518, 0.3274725826730691, -0.006210530321611222, 0.5498816877106175],
      [-0.6771172529141456, 0.7500274223448156, -0.5689607742460364],
      [-0.4271768172089983, -0.2524207179655202, 0.12404328130749251, -0.8593119412317226])),
    (0.3, "seed 0 pose 68", ([-0.1909042207078782, -0.1100625159642144, -0.06135338199680307],
      [-0.3626211227757227, 0.2967739574341416, 0.5924702363238208, -0.6552939482218255],
      [0.7807218217216025, 0.0432755814300497, 0.44256637194829873],
      [-0.1106252709824032, -0.6362795477429258, -0.35010631740375187, 0.6784806209893627])),
    (0.3, "seed 0 pose 79", ([0.16004733384408104, -0.07175568590801801, 0.09815385256017906],
      [0.24794720511589208, -0.3163898893018277, -0.1863928325272086, -0.8964805259487117],
      [-0.8146031308902555, -0.2736660862920489, 0.12142785493930544],
      [0.1661555969682666, 0.884367945647847, 0.4187868230708988, -0.12207887257387973])),
    (0.3, "seed 0 pose 97", ([0.19820804884758353, 0.10563432830567226, -0.09940574592012848],
      [-0.852416924684123, -0.4240868263605532, 0.11540106192196865, 0.2832284327654589],
      [0.6407216634963118, -0.7932244195116576, -0.6147768369234167],
      [-0.5002177106344766, -0.5363756199630901, -0.5205321237455439, -0.4371838794211967])),
    (0.3, "seed 0 pose 136", ([0.13335910257833278, -0.012386525529378078, 0.07643055992817571],
      [0.7029124260865832, -0.677297637404811, -0.20266278386344883, 0.07816538655729922],
      [-0.18032802783508756, -0.8039532008686512, 0.7416014966707386],
      [0.5430085876134183, -0.23583464229642123, -0.0971501743687625, 0.8000534600207156])),
    (0.3, "seed 0 pose 173", ([-0.19178897989538857, 0.058418061491781303, 0.11590374565612205],
      [-0.08232645808993576, 0.9076331235939109, -0.33630261027915986, -0.23732893117559445],
      [0.7140088634873517, 0.05114566593108391, -0.4959811752275969],
      [-0.31225520326575223, -0.8030614623843357, 0.12106722826232681, -0.49288102206057155])),
    (0.3, "seed 0 pose 174", ([-0.03919397114559747, -0.07116360390574941, 0.1432732274240005],
      [0.10853198651747208, -0.03745553653530149, 0.7518903427318601, 0.6492139887525452],
      [0.427024451925919, -1.209428622518028, 0.10262061150086929],
      [0.3129846442185235, -0.19402615805970017, 0.4443150639696368, -0.8166875696382638])),
    (0.3, "seed 0 pose 184", ([0.16125744162397354, -0.08528336218569517, -0.09935960660210688],
      [0.662482792838831, 0.05100897706917041, -0.17620343094307006, -0.7262692230672522],
      [-0.18050054599105259, -0.3946163972761054, -0.9391298269713025],
      [0.5529804678691628, -0.3521063008490105, 0.29852791156658254, -0.6936244236424511])),
    (0.3, "seed 0 pose 188", ([0.054198753372668995, 0.19999310289172995, -0.025281138514451934],
      [0.5052771568143191, -0.2389965985255903, -0.6319499932858378, -0.5368564302314589],
      [-0.8130622656652039, 0.046580896864686167, 0.1558000925012221],
      [-0.623510062617469, -0.7184256589890895, 0.11173348375559287, -0.2874289528365071])),
    (0.3, "seed 1 pose 0", ([0.1183725261313896, -0.12644902326970248, -0.06589950552633903],
      [-0.6408292360045685, 0.0166612056704925, -0.15680060118389755, -0.7513147582576657],
      [0.5398872621930207, 0.3122933282682388, -1.1049814995811071],
      [-0.10833217077645868, 0.6877174578608194, 0.3702520632194559, 0.6149977630935323])),
    (0.3, "seed 1 pose 13", ([-0.031107390130267476, -0.13758729316952634, 0.14172956312674284],
      [-0.5400994324550035, 0.09036926510779032, 0.30696525296922994, -0.7783947150740411],
      [0.5123045455147455, -0.33587257342688426, 1.0793586999287512],
      [0.6901318741532813, -0.19183113847528227, -0.6554956520209843, -0.23925772875821888])),
    (0.3, "seed 1 pose 21", ([0.09963154133526303, 0.17203118832016712, -0.13409686660922304],
      [-0.35136907092540165, 0.14508393802802397, -0.2930797876045822, 0.8772654472968564],
      [0.3269857583269423, 1.2749272680021362, -0.15902444948712038],
      [-0.9665627898110253, 0.20500913369680468, 0.036004597844356334, -0.1497708162082303])),
    (0.3, "seed 1 pose 55", ([-0.12629580145908462, -0.006821081189239742, -0.04333768716528191],
      [-0.023644899299587536, -0.7973426792515087, 0.27487020720013183, 0.5367792281514763],
      [-0.8540380295209986, -0.16441996338254147, 0.8627521112265297],
      [0.3003724353307802, -0.9417297643897904, -0.03352603504000524, 0.1476396150438712])),
    (0.3, "seed 1 pose 146", ([-0.08054803423552506, 0.09496111620675401, -0.11869551972540614],
      [-0.5388923927336454, -0.3860331835487426, 0.710641790515423, -0.23571511582005694],
      [0.16532058129008265, 1.095321745290239, 0.07921193427722074],
      [-0.6458542950998212, 0.5987422728512181, -0.37220569760546185, 0.2929894859412232])),
    (0.3, "seed 1 pose 194", ([-0.19307317272539903, -0.04968901704389256, 0.11224321516645308],
      [0.04810579031113602, 0.9693935323419697, -0.22295767657954577, 0.09083989677641807],
      [0.7396324718978297, -0.40990733113443417, -0.61144381201425],
      [0.2540463787429356, -0.07587539271852208, -0.5026754970835847, -0.8228126802980019])),
    (0.3, "seed 1 pose 195", ([0.002384197655598219, 0.08779128931741231, 0.027163588265186972],
      [0.5228097283838885, -0.728922299882087, -0.4023357725686402, -0.1829431462322893],
      [-0.02118879019360596, 0.3947031513405189, -1.1229217944671044],
      [0.00805699731308627, -0.9178781206559067, -0.1864504285941846, 0.35024431200595224])),
    (0.03, "seed 0 pose 46", ([0.1336779676361775, -0.13213816812188944, -0.19690689005012596],
      [0.7683444972348518, 0.3274725826730691, -0.006210530321611222, 0.5498816877106175],
      [-0.5322060718893409, 0.5923604130508946, -0.5024646154168059],
      [-0.4271768172089983, -0.2524207179655202, 0.12404328130749251, -0.8593119412317226])),
]
# the poses where MuJoCo reports a corner behind the reference plane (a negative dist) for boxes
# apart (its numbers, not gauss's)
NEGATIVE = {0.03: [], 0.1: ["seed 0 pose 44", "seed 0 pose 174"],
            0.3: ["seed 0 pose 174", "seed 0 pose 184", "seed 1 pose 13", "seed 1 pose 146",
                  "seed 1 pose 194"]}


@pytest.mark.parametrize("margin", [0.03, 0.1, 0.3])
def test_edge_axis_apart_corners_outside_faces(margin):
    scene = Scene("box", "box", margin=margin, s1=BOX, s2=BOX)
    cases = [(name, tuple(np.array(a, float) for a in pose)) for m, name, pose in POSES
             if m == margin]
    assert cases
    rng = np.random.default_rng(int(margin * 10))
    negative = []
    for name, pose in cases:
        for k, p in enumerate([pose] + jitter.poses([pose] * 2, rng)):
            scene.place(*p)
            # the boxes are apart, within the margin
            gap = mujoco.mj_geomDistance(scene.mjm, scene.mjd, 0, 1, 10.0, None)
            assert 0 < gap < margin
            worst, n = compare(scene, f"{name}, jitter {k}")
            assert n > 0
            if k == 0 and min(c[0] for c in scene.mujoco_contacts()) < 0:
                negative.append(name)
    # a corner behind the reference plane reports a penetration though the boxes are apart
    assert negative == NEGATIVE[margin]


# Parallel faces apart within the margin whose overlap is empty (pair_box.c, beside_points and
# the choice of box 1's face in gs_collideBoxBox). Box 1 unturned at the origin, box 2 in each of
# the 24 quarter-turn orientations beside one of the two clip sides of each of box 1's six faces
# (0.1 apart along the face's normal, 0.05 beyond the side, offset 0.05, -0.05 or 0.15 along the
# border): MuJoCo clips the incident face to the reference face's slab there (measured: the
# contacts on the other two sides follow another rule, in part not found). The jitters move box
# 2's centre only: the quarter turns stay exact, as they are what the poses are (a turned
# quaternion jittered by 4 ulps tilts the faces by ~1e-16, and there MuJoCo's distances jump:
# 0.1118 -> 0.1084 on pose 39, its exactly parallel faces' rule left). None is a tie: MuJoCo's
# count is the same on 10 such jitters of each, and gauss agrees on all of them.
def _quarter_turns():
    """the 24 rotations by quarter turns, as matrices"""
    out = []
    for perm in itertools.permutations(range(3)):
        for sg in itertools.product([1, -1], repeat=3):
            r = np.zeros((3, 3))
            for i in range(3):
                r[i, perm[i]] = sg[i]
            if np.linalg.det(r) > 0:
                out.append(r)
    return out


def _beside_each_face():
    """box 2 in each of the 24 quarter turns beside each face of box 1, with the signs of the
    face and of the in-plane offsets: (turn matrix, its quaternion, face axis, the two in-plane
    axes, face sign, u sign, v sign), in one fixed order (the tests' random draws follow it)"""
    for r in _quarter_turns():
        q = np.zeros(4)
        mujoco.mju_mat2Quat(q, r.flatten())
        for ax in range(3):
            uv = [k for k in range(3) if k != ax]
            for sg, su, sv in itertools.product((1, -1), repeat=3):
                yield r, q, ax, uv, sg, su, sv


def _rounded_along(scene, ax):
    """box 2's axes carry a rounding component (nonzero, below 1e-9) along world axis ax"""
    axes = scene.mjd.geom_xmat[1].reshape(3, 3)
    return np.any((np.abs(axes[ax]) > 0) & (np.abs(axes[ax]) < 1e-9))


def _clip_side_poses():
    size = np.array([0.3, 0.2, 0.4])
    out = []
    for face in range(3):
        for fs in (1, -1):
            ru, rv = [a for a in range(3) if a != face]
            # the clip side of each in-plane axis, as measured (-x, -y on the +z face; +x, -y on
            # the -z face; on an x or y face the -u side and the z side of the face's sign)
            clip = {ru: -fs if face == 2 else -1, rv: -1 if face == 2 else fs}
            for side in (ru, rv):
                third = 3 - face - side
                for r in _quarter_turns():
                    q = np.zeros(4)
                    mujoco.mju_mat2Quat(q, r.flatten())
                    ext = np.abs(r) @ size
                    for shift in (0.05, -0.05, 0.15):
                        p = np.zeros(3)
                        p[face] = fs * (size[face] + ext[face] + 0.1)
                        p[side] = clip[side] * (size[side] + ext[side] + 0.05)
                        p[third] = shift
                        out.append((np.zeros(3), np.array([1.0, 0, 0, 0]), p, q))
    return out


def test_parallel_faces_apart_beside_clip_sides():
    scene = Scene("box", "box", margin=0.3, s1=BOX, s2=BOX)
    poses = _clip_side_poses()
    assert len(poses) == 864
    rng = np.random.default_rng(5)
    counts = {}
    for k, pose in enumerate(poses):
        moved = [(pose[0], pose[1], jitter.scale(pose[2], rng), pose[3]) for _ in range(2)]
        for j, p in enumerate([pose] + moved):
            scene.place(*p)
            gap = mujoco.mj_geomDistance(scene.mjm, scene.mjd, 0, 1, 10.0, None)
            assert 0 < gap < 0.3
            worst, n = compare(scene, f"clip-side pose {k}, jitter {j}")
            counts[n] = counts.get(n, 0) + (j == 0)
    # the near edge clipped at one border (one contact) or one border and a corner (two)
    assert set(counts) == {1, 2}


# Quarter-turned boxes apart within the margin from tools/box_box_deep.py --apart (seeds 0 and 1
# at margins 0.1 and 0.3) whose contacts now agree with MuJoCo's and did not before (box 1's face
# as the reference, and the clip sides); written out in full. Of the 34 such poses these are the
# 7 whose contacts agree on 90 jittered copies each (4 ulps) with a face-axis normal: the others
# lie at exact parallelism to the last bit (the second box's quaternion is the first's times a
# quarter turn, rounded), where MuJoCo's contacts change with a 1e-16 tilt (see above).
PARALLEL_POSES = [
    (0.1, "seed 0 pose 52", ([0.12364649433948299, -0.028694599193758163, 0.10307329390465708],
      [0.9017498213479158, -0.04814175213320766, -0.18205702770238819, 0.389082086537942],
      [0.8167236264163262, -0.0008698564334354668, 0.45213950071575193],
      [-0.09469239945943275, 0.912755995438059, -0.36251083177967913, 0.16277511824261892])),
    (0.1, "seed 0 pose 163", ([-0.017106193462576108, -0.12203783549468478, -0.00942933286254971],
      [-0.12924418100792714, 0.1357831656589864, 0.12653208598521062, 0.974088550808111],
      [0.1916118248706451, 0.6822873570641366, 0.34073782856327595],
      [-0.004623760388838757, -0.18740263402805252, 0.5993129237147704, -0.778256315790414])),
    (0.1, "seed 0 pose 179", ([-0.15947344635017077, 0.08819153054898254, -0.06406042952187457],
      [0.5625489700983403, 0.16646182845266416, 0.35213685864143307, -0.7292658971154732],
      [-0.49702376354682554, 0.8226599902059111, 0.44136805513301897],
      [-0.3866080900598581, -0.9052067771539554, -0.009479051585818021, 0.17619597860295094])),
    (0.3, "seed 0 pose 52", ([0.12364649433948299, -0.028694599193758163, 0.10307329390465708],
      [0.9017498213479158, -0.04814175213320766, -0.18205702770238819, 0.389082086537942],
      [0.9402167328146394, 0.004087981243172868, 0.5143364312198718],
      [-0.09469239945943275, 0.912755995438059, -0.36251083177967913, 0.16277511824261892])),
    (0.3, "seed 0 pose 110", ([0.05005804987563056, -0.10002508507068852, -0.11820627691122049],
      [0.6793092290744744, 0.24464753467000516, 0.3373985495545293, 0.6040271300468479],
      [0.2001048108556251, 0.19541709153888182, 0.794682671028536],
      [-0.25411974891104316, -0.24176736004865365, -0.6001036104425065, 0.7189209647536798])),
    (0.3, "seed 0 pose 135", ([-0.17829542619651362, -0.0742800299043053, -0.1527262341354761],
      [-0.19191286269486527, 0.7067320764065382, -0.11229692307210977, -0.6716313173005718],
      [-1.1681979150012198, -0.3173409291267329, 0.2116448684065299],
      [0.21510880241913494, -0.024819984788624294, -0.05629697079778917, 0.9746501026296006])),
    (0.3, "seed 0 pose 163", ([-0.017106193462576108, -0.12203783549468478, -0.00942933286254971],
      [-0.12924418100792714, 0.1357831656589864, 0.12653208598521062, 0.974088550808111],
      [0.20107432753365284, 0.7187524851699483, 0.3566131119908896],
      [-0.004623760388838757, -0.18740263402805252, 0.5993129237147704, -0.778256315790414])),
]


@pytest.mark.parametrize("margin", [0.1, 0.3])
def test_parallel_faces_apart_quarter_turns(margin):
    scene = Scene("box", "box", margin=margin, s1=BOX, s2=BOX)
    cases = [(name, tuple(np.array(a, float) for a in pose)) for m, name, pose in PARALLEL_POSES
             if m == margin]
    assert cases
    rng = np.random.default_rng(int(margin * 100))
    for name, pose in cases:
        for k, p in enumerate([pose] + jitter.poses([pose] * 2, rng)):
            scene.place(*p)
            gap = mujoco.mj_geomDistance(scene.mjm, scene.mjd, 0, 1, 10.0, None)
            assert 0 < gap < margin
            # a face axis: MuJoCo's normal along an axis of either box
            nrm = scene.mujoco_contacts()[0][2][:3]
            axes = np.r_[scene.mjd.geom_xmat[0].reshape(3, 3).T,
                         scene.mjd.geom_xmat[1].reshape(3, 3).T]
            assert np.abs(axes @ nrm).max() > 1 - 1e-9
            compare(scene, f"{name}, jitter {k}")


def test_parallel_cubes_reference_corner_paired():
    """Equal cubes with exactly parallel faces apart within the margin, overlapping in the plane:
    box 2 in the 24 quarter-turn orientations beside each of box 1's faces, offset diagonally in
    the plane each way, nominal (gap 0.1, offsets 0.02 and 0.03) and jittered (gap 0.09 to 0.12,
    offsets moved by up to 0.003). Where a reference corner outside the incident face is paired
    with a point of it (pair_corner in pair_box.c), MuJoCo gives a fifth contact. Orientations
    whose in-plane axes have a rounding component along the normal are left out: there MuJoCo's
    choice is not reproduced (12 of 192 differ)."""
    scene = Scene("box", "box", margin=0.3, s1="0.1 0.1 0.1", s2="0.1 0.1 0.1")
    rng = np.random.default_rng(23)
    paired = poses = 0
    for r, q, ax, uv, sg, su, sv in _beside_each_face():
        for j in range(2):
            gap = 0.1 if j == 0 else rng.uniform(0.09, 0.12)
            off = np.array([0.02, 0.03]) + (0 if j == 0 else rng.uniform(-0.003, 0.003, 2))
            p = np.zeros(3)
            p[ax], p[uv[0]], p[uv[1]] = sg * (0.2 + gap), su * off[0], sv * off[1]
            scene.place(np.zeros(3), np.array([1.0, 0, 0, 0]), p, q)
            if _rounded_along(scene, ax):
                continue
            compare(scene, f"turn {r.tolist()}, face {sg * (ax + 1)}, {su} {sv}, {j}")
            ref = scene.mujoco_contacts()
            poses += 1
            paired += any(abs(c[0] - gap) > 1e-9 for c in ref)
    assert poses == 768
    # one reference corner per face, on a quarter of the orientations (24 of 384 each time)
    assert paired == 48


@pytest.mark.parametrize("s1, s2", [("0.1 0.11 0.12", "0.1 0.1 0.1"),
                                    ("0.12 0.1 0.11", "0.1 0.09 0.1")])
def test_parallel_boxes_reference_corner_paired_turned(s1, s2):
    """As test_parallel_cubes_reference_corner_paired, on boxes of unequal sizes with box 1 turned
    by the exact half turns (the rule read in box 1's frame, with box 2's half sizes in s): box 2
    in the 24 quarter turns (times box 1's turn) beside each face of box 1, its near corner inside
    box 1's face by 0.015 to 0.03 on each in-plane axis, gaps 0.09 to 0.12 (random), margin 0.3;
    poses with rounding components of box 2's in-plane axes along the normal are left out."""
    scene = Scene("box", "box", margin=0.3, s1=s1, s2=s2)
    a1 = np.array([float(x) for x in s1.split()])
    a2 = np.array([float(x) for x in s2.split()])
    rng = np.random.default_rng(7)
    paired = poses = 0
    for q1 in ([1.0, 0, 0, 0], [0, 1.0, 0, 0], [0, 0, 1.0, 0], [0, 0, 0, 1.0]):
        q1 = np.array(q1)
        r1 = np.zeros(9)
        mujoco.mju_quat2Mat(r1, q1)
        r1 = r1.reshape(3, 3)
        for r, qr, ax, uv, sg, su, sv in _beside_each_face():
            q2 = np.zeros(4)
            mujoco.mju_mulQuat(q2, q1, qr)
            ext = np.abs(r) @ a2
            p = np.zeros(3)
            p[ax] = sg * (a1[ax] + ext[ax] + rng.uniform(0.09, 0.12))
            for k, s in ((uv[0], su), (uv[1], sv)):
                p[k] = s * (a1[k] - ext[k] + rng.uniform(0.015, 0.03))
            scene.place(np.zeros(3), q1, r1 @ p, q2)
            n = scene.mjd.geom_xmat[0].reshape(3, 3)[:, ax]
            comp = np.abs(scene.mjd.geom_xmat[1].reshape(3, 3).T @ n)
            if np.any((comp > 0) & (comp < 1e-9)):
                continue
            compare(scene, f"q1 {q1}, turn {r.tolist()}, face {sg * (ax + 1)}, {su} {sv}")
            poses += 1
            paired += len(scene.mujoco_contacts()) > 4
    assert poses == 1536
    # the fifth contact on some of them (40 and 16 with these draws; fails before the rule)
    assert paired == {"0.1 0.1 0.1": 40, "0.1 0.09 0.1": 16}[s2]


def test_parallel_faces_apart_reference_corner_kept():
    """Exactly parallel faces apart within the margin where two corners of box 1's face lie inside
    box 2's larger face: MuJoCo keeps one, the one nearest the face's clip corner (see
    beside_points). Box 1 a cube of 0.1, box 2 of 0.09 x 0.1 x 0.11 in the 24 quarter turns beside
    each of box 1's faces, its near corner inside box 1's face by 0.015 to 0.03 on each axis (one
    draw per pose) and gaps 0.09 to 0.12; the draws place two reference corners inside on 151 of
    the 576 poses (none on the incident border: the offsets are drawn). Poses where MuJoCo pairs a
    reference corner with a point of the incident face (a contact whose distance is not the gap)
    are counted and left out: on box 2 of unequal sizes that choice is not all reproduced (see
    pair_corner)."""
    scene = Scene("box", "box", margin=0.3, s1="0.1 0.1 0.1", s2="0.09 0.1 0.11")
    a1, a2 = np.full(3, 0.1), np.array([0.09, 0.1, 0.11])
    rng = np.random.default_rng(3)
    two = paired = 0
    for r, q, ax, uv, sg, su, sv in _beside_each_face():
        ext = np.abs(r) @ a2
        p = np.zeros(3)
        p[ax] = sg * (a1[ax] + ext[ax] + rng.uniform(0.09, 0.12))
        for k, s in ((uv[0], su), (uv[1], sv)):
            p[k] = s * (a1[k] - ext[k] + rng.uniform(0.015, 0.03))
        scene.place(np.zeros(3), np.array([1.0, 0, 0, 0]), p, q)
        inside = sum(all(abs(cu * a1[uv[0]] - p[uv[0]]) < ext[uv[0]] and
                         abs(cv * a1[uv[1]] - p[uv[1]]) < ext[uv[1]] for _ in [0])
                     for cu in (-1, 1) for cv in (-1, 1))
        if inside < 2:
            continue
        gap = mujoco.mj_geomDistance(scene.mjm, scene.mjd, 0, 1, 10.0, None)
        if any(abs(c[0] - gap) > 1e-9 for c in scene.mujoco_contacts()):
            paired += 1  # a reference corner paired with a point (not all reproduced)
            continue
        compare(scene, f"turn {r.tolist()}, face {sg * (ax + 1)}, {su} {sv}")
        two += 1
    assert (two, paired) == (116, 35)


def test_parallel_cubes_reference_corner_paired_far_corner():
    """As test_parallel_cubes_reference_corner_paired, box 1 a cube of 0.12 against box 2 a cube
    of 0.1, offset in the plane by t on each axis (the near corner inside box 1's face): box 2's
    face reaches beyond box 1's far border on an axis where t > 0.02. MuJoCo pairs the reference
    corner only where the reference corner opposite it lies inside the incident face (beyond both
    far borders; pair_corner in pair_box.c). Nominal t in {0.01, 0.03} each axis at gap 0.13, and
    jittered t (0.005 to 0.015 or 0.025 to 0.035, away from the border tie at 0.02) and gaps 0.12
    to 0.14 (the paired point then inside the incident face). Before the rule gauss gave the
    fifth contact also where the face did not reach."""
    scene = Scene("box", "box", margin=0.3, s1="0.12 0.12 0.12", s2="0.1 0.1 0.1")
    rng = np.random.default_rng(11)
    paired = poses = 0
    for r, q, ax, uv, sg, su, sv in _beside_each_face():
        for far in itertools.product((0, 1), repeat=2):
            for j in range(2):
                gap = 0.13 if j == 0 else rng.uniform(0.12, 0.14)
                t = [0.01 + 0.02 * f if j == 0 else rng.uniform(0.005, 0.015) + 0.02 * f
                     for f in far]
                p = np.zeros(3)
                p[ax], p[uv[0]], p[uv[1]] = sg * (0.22 + gap), su * t[0], sv * t[1]
                scene.place(np.zeros(3), np.array([1.0, 0, 0, 0]), p, q)
                if _rounded_along(scene, ax):
                    continue
                compare(scene, f"turn {r.tolist()}, face {sg * (ax + 1)}, {su} {sv}, "
                        f"far {far}, {j}")
                poses += 1
                pair = any(abs(c[0] - gap) > 1e-9 for c in scene.mujoco_contacts())
                assert not pair or far == (1, 1)
                paired += pair
    assert poses == 3072
    # only with the face beyond both far borders, on some orientations (46 with these draws)
    assert paired == 46
