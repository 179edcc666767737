// Ideas in several languages and scripts, for the built-in provider's tests and benchmark.
export const IDEAS: Record<string, string> = {
  en: 'Launch day: our new espresso bar opens Monday at 8am in the old train station. Come early for a free cortado, meet the roasters, and see the La Marzocco we restored ourselves. Details at https://example.com/espresso-bar #coffee',
  es: 'Hoy abrimos nuestra nueva cafetería en el centro de Sevilla. Los primeros cien clientes reciben un café gratis. Ven a conocer a nuestros tostadores y prueba el nuevo espresso de Colombia.',
  de: 'Unser neues Café öffnet am Montag in der Altstadt von Freiburg. Die ersten hundert Gäste bekommen einen Cappuccino geschenkt. Wir freuen uns auf euren Besuch und eure Fragen zur Röstung.',
  ru: 'Сегодня мы открываем новую кофейню в центре Казани. Первые сто гостей получат капучино в подарок. Приходите познакомиться с нашими обжарщиками и попробовать новый эспрессо.',
  zh: '我们的新咖啡店周一在老火车站开业，欢迎大家来品尝。前一百位顾客免费获得一杯拿铁。我们还会介绍自己烘焙的咖啡豆和修复的意式咖啡机。',
  ja: '新しいカフェが月曜日に古い駅舎でオープンします。先着百名様にラテを無料でご提供します。自家焙煎のコーヒー豆と修理したエスプレッソマシンもご紹介します。',
  ko: '새로운 카페가 월요일에 옛 기차역에서 문을 엽니다. 첫 손님 백 분께 라떼를 무료로 드립니다. 직접 로스팅한 원두와 복원한 에스프레소 머신도 소개합니다.',
  ar: 'مرحبا بكم في مقهانا الجديد في محطة القطار القديمة. نفتح أبوابنا يوم الاثنين في الثامنة صباحا. أول مئة زائر يحصلون على قهوة مجانية، وتعالوا لتتعرفوا على المحمصة الخاصة بنا.',
  he: 'בית הקפה החדש שלנו נפתח ביום שני בתחנת הרכבת הישנה. מאה האורחים הראשונים יקבלו קפה הפוך במתנה. בואו להכיר את הקולים שלנו ולטעום את האספרסו החדש.',
  hi: 'हमारा नया कैफ़े सोमवार को पुराने रेलवे स्टेशन में खुल रहा है। पहले सौ मेहमानों को मुफ़्त कॉफ़ी मिलेगी। आइए हमारे रोस्टर से मिलिए और नया एस्प्रेसो चखिए।',
  emoji: `🚀🔥 Big launch today! 👩‍👩‍👧‍👦 Families welcome 🇺🇦🇵🇱🏳️‍🌈 ☕☕☕ ${'🎉✨👏🏽 '.repeat(120)}`,
  long: Array.from(
    { length: 60 },
    (_, i) => `Sentence ${i + 1} of a long announcement about the espresso bar, the roasters and the opening week.`,
  ).join(' '),
  cjkLong: '我们的新咖啡店在老火车站开业。'.repeat(300),
  combining:
    'Cre\u0300me bru\u0302le\u0301e et cafe\u0301 au lait ce soir à Montréal. Phở và cà phê sữa đá ở Hà Nội cũng có!',
  word: 'Hello',
};
